//! Contact-data detection: email addresses, phone numbers and street addresses. The
//! extractor never emits text for which `has_contact_data` is true; it drops such
//! sentences, titles and names instead of editing them (an edited quote would no longer be
//! verbatim). Pure functions over `&str`; knows nothing of filings.

/// Words that end the street part of an address ("100 Main Street").
const STREET_WORDS: [&str; 22] = [
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "drive",
    "lane",
    "ln",
    "way",
    "parkway",
    "pkwy",
    "place",
    "plaza",
    "court",
    "ct",
    "circle",
    "highway",
    "suite",
    "floor",
];

/// True when the text contains an email address, a phone number or a street address.
pub fn has_contact_data(text: &str) -> bool {
    has_email(text) || has_phone(text) || has_street_address(text)
}

/// `local@domain.tld`, where both sides have at least one letter or digit.
pub fn has_email(text: &str) -> bool {
    text.match_indices('@').any(|(at, _)| {
        let local_ok = text[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || "._%+-".contains(c));
        let domain: String =
            text[at + 1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-').collect();
        let domain = domain.trim_end_matches('.');
        local_ok && domain.contains('.') && domain.rsplit('.').next().is_some_and(|tld| tld.len() >= 2)
    })
}

/// North American numbers: `(212) 555-0100`, `212-555-0100`, `212.555.0100`,
/// `+1 212 555 0100`, `1-800-555-0100`. Other digit runs (dates, amounts, file numbers)
/// do not match because the groups must be exactly 3, 3 and 4 digits.
pub fn has_phone(text: &str) -> bool {
    let bytes = text.as_bytes();
    (0..bytes.len()).any(|i| {
        let boundary = i == 0 || !bytes[i - 1].is_ascii_digit();
        boundary && phone_at(&bytes[i..])
    })
}

fn phone_at(b: &[u8]) -> bool {
    let mut i = 0;
    let paren = b.first() == Some(&b'(');
    if paren {
        i += 1;
    }
    let Some(n) = digits(b, i, 3) else {
        return false;
    };
    i = n;
    if paren {
        if b.get(i) != Some(&b')') {
            return false;
        }
        i += 1;
        if b.get(i) == Some(&b' ') {
            i += 1;
        }
    } else {
        let Some(&sep) = b.get(i) else { return false };
        if !matches!(sep, b'-' | b'.' | b' ') {
            return false;
        }
        i += 1;
    }
    let Some(n) = digits(b, i, 3) else {
        return false;
    };
    i = n;
    if !matches!(b.get(i), Some(b'-' | b'.' | b' ')) {
        return false;
    }
    digits(b, i + 1, 4).is_some_and(|end| !b.get(end).is_some_and(u8::is_ascii_digit))
}

/// Index after exactly `count` digits starting at `from`, if present.
fn digits(b: &[u8], from: usize, count: usize) -> Option<usize> {
    let end = from + count;
    (end <= b.len() && b[from..end].iter().all(u8::is_ascii_digit)).then_some(end)
}

/// A house number followed by capitalised words ending in a street word ("100 North Main
/// Street"), or a post-office box.
pub fn has_street_address(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("p.o. box") || lower.contains("po box") || lower.contains("post office box") {
        return true;
    }
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let capitalised = |w: &&&str| w.chars().next().is_some_and(char::is_uppercase);
    words.iter().enumerate().any(|(i, w)| {
        let house = w.len() <= 5 && w.chars().all(|c| c.is_ascii_digit());
        house
            && words[i + 1..words.len().min(i + 6)]
                .iter()
                .take_while(capitalised)
                .skip(1)
                .any(|s| STREET_WORDS.contains(&s.trim_end_matches('.').to_lowercase().as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_found() {
        assert!(has_contact_data("Write to investor.relations@apple.com today."));
        assert!(!has_contact_data("Our handle is @apple on social media."));
        assert!(!has_contact_data("We sold 10 units @ $5 each."));
    }

    #[test]
    fn phone_numbers_are_found_in_common_layouts() {
        for s in ["Call (408) 996-1010.", "Call 408-996-1010", "tel 408.996.1010", "+1 408 996 1010", "1-800-275-2273"]
        {
            assert!(has_phone(s), "{s}");
        }
    }

    #[test]
    fn dates_amounts_and_file_numbers_are_not_phones() {
        for s in ["File No. 333-271850", "2023-2024", "$1,234,567,890", "CIK 0000320193", "12.345.6789"] {
            assert!(!has_phone(s), "{s}");
        }
    }

    #[test]
    fn street_addresses_and_po_boxes_are_found() {
        assert!(has_street_address("Our office is at 100 North Main Street, Dallas."));
        assert!(has_street_address("Mail to P.O. Box 123."));
        assert!(has_street_address("2445 Technology Forest Blvd. Level 6"));
        assert!(!has_street_address("We operate 100 stores in 12 states."));
        assert!(!has_street_address("We sell 3 products in a way customers like."));
    }
}
