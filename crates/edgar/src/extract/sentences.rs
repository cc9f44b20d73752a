//! Sentence splitting for filing prose. Works on one normalised line (paragraph) at a
//! time and returns borrowed slices, so every sentence is verbatim from its line. A period
//! ends a sentence only when followed by a space and a capital, digit, quote or bracket,
//! and not after an abbreviation ("Inc.", "Corp.", "No.", "U.S.", initials) unless the
//! next word is a typical sentence opener ("We", "The", ...). Decimals ("3.5") never split
//! because no space follows the point. Bullets ("•", "●", "▪") start a new item.

/// Words that end with a period without ending the sentence.
const ABBREVIATIONS: [&str; 44] = [
    "inc", "corp", "co", "ltd", "llc", "plc", "l.p", "lp", "n.a", "s.a", "no", "nos", "mr", "mrs", "ms", "dr", "jr",
    "sr", "st", "vs", "etc", "e.g", "i.e", "approx", "u.s", "u.k", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec", "fig", "v", "ph.d", "u.s.a", "s.p.a", "n.v",
];

/// Words after an abbreviation that show a new sentence has started anyway.
const OPENERS: [&str; 10] = ["We", "Our", "The", "This", "These", "In", "As", "It", "On", "During"];

const BULLETS: [char; 5] = ['\u{2022}', '\u{25cf}', '\u{25aa}', '\u{25e6}', '\u{00b7}'];

/// Splits one line of normalised text into trimmed sentences (slices of `line`).
pub fn split_sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for item in line.split(|c| BULLETS.contains(&c)) {
        split_item(item, &mut out);
    }
    out
}

fn split_item<'a>(item: &'a str, out: &mut Vec<&'a str>) {
    let mut start = 0;
    let chars: Vec<(usize, char)> = item.char_indices().collect();
    for (i, &(pos, c)) in chars.iter().enumerate() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        // The sentence may close with a quote or bracket after the stop.
        let mut end = i + 1;
        while end < chars.len() && matches!(chars[end].1, '"' | '\u{201d}' | '\u{2019}' | ')') {
            end += 1;
        }
        if end >= chars.len() || chars[end].1 != ' ' {
            continue;
        }
        let Some(&(_, next)) = chars.get(end + 1) else {
            continue;
        };
        if !(next.is_uppercase() || next.is_ascii_digit() || matches!(next, '"' | '\u{201c}' | '(')) {
            continue;
        }
        let next_word = next_word(item, chars[end + 1].0);
        if c == '.' && ends_with_abbreviation(&item[start..pos]) && !OPENERS.contains(&next_word) {
            continue;
        }
        let stop = chars[end].0;
        push_trimmed(&item[start..stop], out);
        start = stop;
    }
    push_trimmed(&item[start..], out);
}

fn push_trimmed<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let t = s.trim();
    if !t.is_empty() {
        out.push(t);
    }
}

fn next_word(item: &str, from: usize) -> &str {
    let rest = &item[from..];
    let end = rest.find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len());
    &rest[..end]
}

/// Whether the text before a period ends with an abbreviation or a single initial.
fn ends_with_abbreviation(before: &str) -> bool {
    let word = before.rsplit([' ', '(', '"', '\u{201c}']).next().unwrap_or("");
    if word.chars().count() == 1 && word.chars().all(char::is_uppercase) {
        return true;
    }
    let lower = word.to_lowercase();
    ABBREVIATIONS.contains(&lower.trim_end_matches(','))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_sentence_ends() {
        assert_eq!(
            split_sentences("We grew. Our margin fell! Why? Because."),
            vec!["We grew.", "Our margin fell!", "Why?", "Because."]
        );
    }

    #[test]
    fn corporate_abbreviations_and_initials_do_not_split() {
        let s = "We acquired Foo Inc. and Bar Corp. in the U.S. last year. John A. Smith joined.";
        assert_eq!(
            split_sentences(s),
            vec!["We acquired Foo Inc. and Bar Corp. in the U.S. last year.", "John A. Smith joined."]
        );
    }

    #[test]
    fn an_abbreviation_followed_by_a_sentence_opener_splits() {
        assert_eq!(
            split_sentences("Our customer is Apple Inc. We sell to it."),
            vec!["Our customer is Apple Inc.", "We sell to it."]
        );
    }

    #[test]
    fn numbers_and_no_abbreviation_stay_whole() {
        assert_eq!(
            split_sentences("Revenue grew 3.5% to $1.2 billion under Agreement No. 4 in 2023. Next."),
            vec!["Revenue grew 3.5% to $1.2 billion under Agreement No. 4 in 2023.", "Next."]
        );
    }

    #[test]
    fn bullets_start_new_items_and_quotes_close_sentences() {
        assert_eq!(
            split_sentences("We offer: \u{2022} phones \u{2022} \"tablets.\" The end."),
            vec!["We offer:", "phones", "\"tablets.\"", "The end."]
        );
    }
}
