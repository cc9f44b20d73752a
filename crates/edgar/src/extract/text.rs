//! HTML, inline-XBRL and XML to plain text, and whitespace normalisation. Owns the one
//! definition of "the text of a document" that quotes are verified against: block tags
//! become line breaks, `<script>`, `<style>`, `<head>` and the hidden `<ix:header>` are
//! dropped, entities are decoded, and every run of whitespace inside a line becomes one
//! space. Knows nothing of filings, sentences or companies.

/// Elements whose whole content is never shown to a reader.
const HIDDEN: [&str; 5] = ["script", "style", "head", "ix:header", "title"];

/// Elements that start a new line of text.
const BLOCK: [&str; 24] = [
    "p",
    "div",
    "br",
    "tr",
    "li",
    "ul",
    "ol",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "center",
    "blockquote",
    "pre",
    "section",
    "article",
    "dt",
    "dd",
    "page",
    "body",
];

/// Decodes raw document bytes: UTF-8 when valid, otherwise Windows-1252 (what older EDGAR
/// documents use).
pub fn decode_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| cp1252(u32::from(b))).collect(),
    }
}

/// Whether a document body is markup (HTML/XML) rather than plain text.
pub fn looks_like_markup(body: &str) -> bool {
    let head: String = body.chars().take(4000).collect::<String>().to_ascii_lowercase();
    ["<html", "<p", "<div", "<?xml", "<table", "<body", "<font", "<br"].iter().any(|t| head.contains(t))
}

/// Converts markup to lines of normalised text (no empty lines). With `xml`, every tag
/// starts a new line, so XML element values stay apart.
pub fn markup_to_lines(markup: &str, xml: bool) -> Vec<String> {
    let mut raw = String::with_capacity(markup.len() / 2);
    let mut hidden: Option<String> = None;
    let mut rest = markup;
    while let Some(lt) = rest.find('<') {
        if hidden.is_none() {
            push_decoded(&mut raw, &rest[..lt]);
        }
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(h) = &hidden {
            if closing && *h == name {
                hidden = None;
            }
            continue;
        }
        if !closing && HIDDEN.contains(&name.as_str()) && !tag.ends_with('/') {
            hidden = Some(name);
            continue;
        }
        if xml || BLOCK.contains(&name.as_str()) {
            raw.push('\n');
        } else if name == "td" || name == "th" {
            raw.push(' ');
        }
    }
    if hidden.is_none() {
        push_decoded(&mut raw, rest);
    }
    text_to_lines(&raw)
}

/// Plain text with hard-wrapped lines (old SGML documents, some extracted texts) to
/// paragraphs: lines are joined until a blank (or whitespace-only) line.
pub fn wrapped_text_to_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut paragraph = String::new();
    for line in text.lines().chain(std::iter::once("")) {
        if line.trim().is_empty() {
            let joined = normalise_whitespace(&paragraph);
            if !joined.is_empty() {
                out.push(joined);
            }
            paragraph.clear();
        } else {
            paragraph.push(' ');
            paragraph.push_str(line);
        }
    }
    out
}

/// Whether plain text is hard-wrapped: most of its long lines (60 characters or more) break
/// mid-sentence, after a lowercase letter or a comma. A text with one paragraph per line ends
/// few of them so (under a quarter in the older extracted 10-Ks; over three quarters in the
/// wrapped 20-Fs of `fresh/`).
pub fn is_hard_wrapped(text: &str) -> bool {
    let long: Vec<&str> = text.lines().map(str::trim_end).filter(|l| l.chars().count() >= 60).collect();
    let broken = long.iter().filter(|l| l.ends_with(|c: char| c.is_lowercase() || c == ',')).count();
    !long.is_empty() && broken * 2 > long.len()
}

/// Splits plain text into lines, normalising whitespace inside each and dropping blanks.
pub fn text_to_lines(text: &str) -> Vec<String> {
    text.lines().map(normalise_whitespace).filter(|l| !l.is_empty()).collect()
}

/// Collapses every run of whitespace (including no-break spaces) to one ASCII space and
/// trims both ends. This is the normalisation quotes are compared under.
pub fn normalise_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(|c: char| c.is_whitespace() || c == '\u{200b}') {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Appends markup text content with character references decoded. Line breaks in the
/// source are only whitespace in HTML, so they become spaces.
fn push_decoded(out: &mut String, text: &str) {
    let owned;
    let mut rest = if text.contains(['\n', '\r']) {
        owned = text.replace(['\n', '\r'], " ");
        owned.as_str()
    } else {
        text
    };
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest.char_indices().take(12).find(|&(_, c)| c == ';');
        match end.and_then(|(i, _)| decode_entity(&rest[1..i]).map(|c| (i, c))) {
            Some((i, c)) => {
                out.push(c);
                rest = &rest[i + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

fn decode_entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        return Some(cp1252(code));
    }
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" | "ensp" | "emsp" | "thinsp" => ' ',
        "rsquo" => '\u{2019}',
        "lsquo" => '\u{2018}',
        "rdquo" => '\u{201d}',
        "ldquo" => '\u{201c}',
        "mdash" => '\u{2014}',
        "ndash" => '\u{2013}',
        "bull" => '\u{2022}',
        "middot" => '\u{b7}',
        "hellip" => '\u{2026}',
        "reg" => '\u{ae}',
        "trade" => '\u{2122}',
        "copy" => '\u{a9}',
        "sect" => '\u{a7}',
        "para" => '\u{b6}',
        "deg" => '\u{b0}',
        "eacute" => '\u{e9}',
        "egrave" => '\u{e8}',
        "uuml" => '\u{fc}',
        "ouml" => '\u{f6}',
        "auml" => '\u{e4}',
        "ntilde" => '\u{f1}',
        "ccedil" => '\u{e7}',
        _ => return None,
    };
    Some(c)
}

/// Maps a code point to a char, reading 0x80..=0x9F as Windows-1252 (EDGAR documents often
/// write `&#146;` for a right quote).
fn cp1252(code: u32) -> char {
    const HIGH: [char; 32] = [
        '\u{20ac}', ' ', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}', '\u{2c6}', '\u{2030}',
        '\u{160}', '\u{2039}', '\u{152}', ' ', '\u{17d}', ' ', ' ', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}',
        '\u{2022}', '\u{2013}', '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', ' ', '\u{17e}',
        '\u{178}',
    ];
    match code {
        0x80..=0x9f => HIGH[(code - 0x80) as usize],
        0 => ' ',
        _ => char::from_u32(code).unwrap_or(' '),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_tags_break_lines_and_inline_tags_do_not() {
        let html = "<html><head><title>10-K</title></head><body><p>We make <b>chips</b>.</p>\
                    <div>Our&nbsp;fabs&#160;run.</div><table><tr><td>A</td><td>B</td></tr></table></body></html>";
        assert_eq!(markup_to_lines(html, false), vec!["We make chips.", "Our fabs run.", "A B"]);
    }

    #[test]
    fn scripts_styles_comments_and_the_ixbrl_header_are_dropped() {
        let html = "<div style=\"display:none\"><ix:header><ix:hidden>dei:Secret 123</ix:hidden>\
                    </ix:header></div><script>var x = '<p>';</script><style>p{}</style>\
                    <!-- a <p> comment --><p>Visible text.</p>";
        assert_eq!(markup_to_lines(html, false), vec!["Visible text."]);
    }

    #[test]
    fn entities_decode_including_windows_1252_references() {
        let lines = markup_to_lines("<p>AT&amp;T&#146;s &#147;plan&#148; &rsquo;x&lt;y&unknown; &#x2014;</p>", false);
        assert_eq!(lines, vec!["AT&T\u{2019}s \u{201c}plan\u{201d} \u{2019}x<y&unknown; \u{2014}"]);
    }

    #[test]
    fn xml_mode_keeps_element_values_on_separate_lines() {
        let xml = "<?xml version=\"1.0\"?><a><name>Adams Katherine L.</name><t>SVP</t></a>";
        assert_eq!(markup_to_lines(xml, true), vec!["Adams Katherine L.", "SVP"]);
    }

    #[test]
    fn source_line_breaks_inside_a_paragraph_are_spaces() {
        assert_eq!(
            markup_to_lines("<p>Silicon Valley,\nCA (April 16, 2025)</p>", false),
            vec!["Silicon Valley, CA (April 16, 2025)"]
        );
        assert_eq!(
            wrapped_text_to_lines("We make\nchips.\n\nWe sell\r\nthem.\n   \nAnd buy."),
            vec!["We make chips.", "We sell them.", "And buy."]
        );
    }

    #[test]
    fn hard_wrapped_text_is_told_from_one_paragraph_per_line() {
        let wrapped = "In April 2025, we completed the acquisition of a software business located in\nShenzhen for a cash consideration, and we entered into a new credit agreement with\nour lenders.\n";
        assert!(is_hard_wrapped(wrapped));
        let paragraphs = "In April 2025, we completed the acquisition of a software business located in Shenzhen.\nWe entered into a new credit agreement with our lenders in May 2025 for working capital.\n";
        assert!(!is_hard_wrapped(paragraphs));
        assert!(!is_hard_wrapped(""));
    }

    #[test]
    fn whitespace_normalisation_collapses_runs_and_no_break_spaces() {
        assert_eq!(normalise_whitespace("  a \u{a0}\t b\n\nc "), "a b c");
    }

    #[test]
    fn invalid_utf8_is_read_as_windows_1252() {
        assert_eq!(decode_bytes(b"caf\xe9 \x93x\x94"), "caf\u{e9} \u{201c}x\u{201d}");
    }
}
