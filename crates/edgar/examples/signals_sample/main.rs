//! Draws the signal evaluation sample (tests/fixtures/signals/eval.jsonl before judging)
//! from the corpus, reproducibly: every sentence of every tracked company's prose document
//! that has the shape of a statement (40–400 characters, a capital first, a period last,
//! at least seven words, about the company) is hashed with a fixed seed; the sentences
//! with the smallest hashes are taken. Stratum `all` draws from every such sentence, so
//! classifier misses count; stratum `keyword` draws from those with a signal keyword
//! (the pre-rework keyword rules), where most false signals used to come from.
//!
//! `cargo run -p gtms-edgar --example signals_sample -- ../shared/data 200 140 [SEED] > sample.jsonl`
//! (SEED: up to eight characters, `gtms-16` by default, the first draw's; a fifth argument N
//! adds stratum `emitted`: N sentences the classifier emits today, to judge its precision)
//! (then judge each line by hand, adding `kind`, as `docs/signal-rules.md` says)

mod lexicon;

use std::collections::BTreeSet;
use std::path::Path;

use gtms_edgar::extract::company::is_prose;
use gtms_edgar::extract::documents::{Loaded, load};
use gtms_edgar::extract::manifest::read_manifest;
use gtms_edgar::extract::registry::read_tracked;
use gtms_edgar::extract::sentences::split_sentences;
use gtms_edgar::extract::signals::verdict;
use gtms_edgar::extract::statements::name_word;
use lexicon::{classify, words};

/// The seed of the first draw (the judged `eval.jsonl`); a later draw names its own.
const SEED: &str = "gtms-16";

fn hash(text: &str, seed: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let from = Path::new(args.get(1).map_or("../shared/data", String::as_str));
    let n_all: usize = args.get(2).map_or(Ok(200), |s| s.parse())?;
    let n_keyword: usize = args.get(3).map_or(Ok(140), |s| s.parse())?;
    let n_emitted: usize = args.get(5).map_or(Ok(0), |s| s.parse())?;
    let seed = args.get(4).map_or(SEED, String::as_str).bytes().fold(0u64, |h, b| (h << 8) | u64::from(b));
    let tracked = read_tracked(from)?;
    let mut all: Vec<(u64, String, String, String, String)> = Vec::new();
    let mut keyword: Vec<(u64, String, String, String, String)> = Vec::new();
    let mut emitted: Vec<(u64, String, String, String, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for row in read_manifest(from)? {
        let Some(company) = tracked.get(&row.cik) else { continue };
        if row.filed.len() != 10 || !(row.is_full_submission() || is_prose(&row.doc_type)) {
            continue;
        }
        let name = name_word(&company.legal_name);
        let texts = match load(from, &row)? {
            Loaded::Text(t) => vec![t],
            Loaded::Submission(parts) => parts.into_iter().filter(|p| is_prose(&p.doc_type)).map(|p| p.text).collect(),
        };
        for text in texts {
            for line in &text.lines {
                for s in split_sentences(line) {
                    if !shaped(s, name.as_deref()) || !seen.insert(s.to_owned()) {
                        continue;
                    }
                    let entry =
                        (hash(s, seed), s.to_owned(), row.form.clone(), row.filed.clone(), company.legal_name.clone());
                    if classify(s).is_some() {
                        keyword.push(entry.clone());
                    }
                    if n_emitted > 0 && verdict(s, &row.form, &row.filed, Some(&company.legal_name)).kind.is_some() {
                        emitted.push(entry.clone());
                    }
                    all.push(entry);
                }
            }
        }
    }
    all.sort();
    keyword.sort();
    emitted.sort();
    let mut taken = BTreeSet::new();
    for (stratum, pool, n) in [("all", &all, n_all), ("keyword", &keyword, n_keyword), ("emitted", &emitted, n_emitted)]
    {
        let picked: Vec<_> = pool.iter().filter(|e| !taken.contains(&e.1)).take(n).cloned().collect();
        for (_, text, form, filed, company) in picked {
            taken.insert(text.clone());
            let line =
                serde_json::json!({"stratum": stratum, "company": company, "text": text, "form": form, "filed": filed});
            println!("{line}");
        }
    }
    eprintln!("population: {} sentences, {} with a keyword, {} emitted", all.len(), keyword.len(), emitted.len());
    Ok(())
}

fn shaped(s: &str, name: Option<&str>) -> bool {
    let len = s.chars().count();
    let first = s.chars().next().unwrap_or(' ');
    if !(40..=400).contains(&len) || !s.ends_with('.') || !(first.is_uppercase() || first == '"') {
        return false;
    }
    let ws = words(s);
    let lower = s.to_lowercase();
    ws.len() >= 7
        && (ws.iter().any(|w| matches!(w.as_str(), "we" | "our" | "us"))
            || lower.contains("the company")
            || name.is_some_and(|n| ws.iter().any(|w| w == n)))
}
