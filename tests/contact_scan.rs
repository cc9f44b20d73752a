//! No contact data in the committed extract nor in what the binary serves from it: scans
//! every file under `seed/` and every uncompressed file under `assets/company/public/` (the JSON
//! cards and indexes, the company pages, `llms.txt`) for email addresses and North American
//! phone numbers and fails on any hit. The patterns are
//! written here independently of the extractor's own `contact` module, so a bug there
//! cannot hide a leak.

use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// `x@y.zz` with word characters around the `@`.
fn emails(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut hits = Vec::new();
    for (at, _) in text.match_indices('@') {
        let start = (0..at).rev().take_while(|&i| word(b[i])).last().unwrap_or(at);
        let end = (at + 1..b.len()).take_while(|&i| word(b[i])).last().map_or(at + 1, |i| i + 1);
        let domain = text[at + 1..end].trim_end_matches('.');
        if start < at
            && domain.contains('.')
            && domain.rsplit('.').next().is_some_and(|t| t.len() >= 2 && t.chars().all(|c| c.is_ascii_alphabetic()))
        {
            hits.push(text[start..end].to_owned());
        }
    }
    hits
}

/// Digit groups 3-3-4 joined by `-`, `.`, space or `(...)`, not inside a longer number.
fn phones(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut hits = Vec::new();
    for start in 0..chars.len() {
        if start > 0 && (chars[start - 1].is_ascii_digit() || chars[start - 1] == '(') {
            continue;
        }
        let mut digits = String::new();
        let mut groups = Vec::new();
        let mut i = start;
        let mut end = start;
        while i < chars.len() && groups.len() < 3 {
            let c = chars[i];
            if c.is_ascii_digit() {
                digits.push(c);
                end = i + 1;
            } else if !digits.is_empty() && matches!(c, '-' | '.' | ' ' | ')') {
                groups.push(std::mem::take(&mut digits));
                if c == ')' && chars.get(i + 1) == Some(&' ') {
                    i += 1;
                }
            } else if !(c == '(' && i == start) {
                break;
            }
            i += 1;
        }
        if !digits.is_empty() {
            groups.push(digits);
        }
        let lens: Vec<usize> = groups.iter().map(String::len).collect();
        let followed_by_digit = chars.get(end).is_some_and(char::is_ascii_digit);
        if lens.starts_with(&[3, 3, 4]) && !followed_by_digit {
            hits.push(chars[start..end].iter().collect());
        }
    }
    hits
}

#[test]
fn the_scanner_finds_what_it_looks_for() {
    assert_eq!(emails("mail ir@example.com now"), vec!["ir@example.com"]);
    assert!(emails("AT&T @ 5 and @handle").is_empty());
    assert_eq!(phones("call (650) 543-4800."), vec!["(650) 543-4800"]);
    assert_eq!(phones("or 650-543-4800"), vec!["650-543-4800"]);
    assert!(phones("cik 0001326801, $1,234,567, 333-271850, 2023-2024").is_empty());
}

#[test]
fn no_file_under_seed_nor_any_served_company_file_holds_an_email_or_phone_number() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("seed"), &mut files);
    let mut served = Vec::new();
    files_under(&root.join("assets/company/public"), &mut served);
    served.retain(|f| !matches!(f.extension().and_then(|e| e.to_str()), Some("gz" | "br")));
    assert!(served.iter().any(|f| f.extension().is_some_and(|e| e == "html")), "the company pages are scanned");
    files.extend(served);
    files.sort();
    let mut leaks = Vec::new();
    for file in &files {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap_or_default()).into_owned();
        for (n, line) in text.lines().enumerate() {
            for hit in emails(line).into_iter().chain(phones(line)) {
                leaks.push(format!("{}:{}: {hit}", file.display(), n + 1));
            }
        }
    }
    assert!(leaks.is_empty(), "contact data:\n{}", leaks.join("\n"));
}
