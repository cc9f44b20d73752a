//! What keeps a sentence from being a signal even when it names an event: hedges and
//! negation (risk factors, conditions), accounting language (policies, charges, fair
//! values), history and running totals (a career, "to date", figures for several years),
//! and events told only as background (use of proceeds, "following our acquisition of", a
//! clause opening with "When" or "Prior to").
//! Each list is matched on the sentence's lowercase words; phrases on its lowercase text.

/// Words that make a sentence conditional, negative, an opinion or a risk.
const HEDGES: [&str; 31] = [
    "none",
    "alleged",
    "alleges",
    "allegedly",
    "may",
    "might",
    "could",
    "would",
    "should",
    "if",
    "unless",
    "whether",
    "unable",
    "likely",
    "unlikely",
    "not",
    "no",
    "never",
    "cannot",
    "neither",
    "nor",
    "believe",
    "believes",
    "potential",
    "potentially",
    "possible",
    "possibly",
    "risk",
    "risks",
    "uncertain",
    "uncertainty",
];

/// Words of accounting policy and bookkeeping (and amendments of existing agreements).
const ACCOUNTING: [&str; 29] = [
    "amendments",
    "recognize",
    "recognized",
    "recognizes",
    "recognition",
    "record",
    "recorded",
    "amendment",
    "amending",
    "amortization",
    "amortized",
    "depreciation",
    "impairment",
    "impaired",
    "goodwill",
    "gaap",
    "asu",
    "asc",
    "carrying",
    "allowance",
    "accrued",
    "estimate",
    "estimated",
    "estimates",
    "intangible",
    "reclassified",
    "noncash",
    "non-cash",
    "hedging",
];

/// Words of history, running totals and multi-period statistics.
const HISTORY: [&str; 7] =
    ["formerly", "since", "respectively", "totaling", "cumulative", "cumulatively", "aggregating"];

/// Phrases (on lowercase text) that mark accounting, history, statistics or background.
const PHRASES: [&str; 94] = [
    "over the past",
    "over the last",
    "for many years",
    "at times",
    "upon formation",
    "was founded",
    "was launched in",
    "increased by",
    "decreased by",
    "comparing to",
    "who joined",
    "who announced",
    "serving as",
    "in recent years",
    "compared to",
    "compared with",
    "following the closing",
    "by and among",
    "fair value",
    "accounting firm",
    "auditor",
    "before we",
    "as part of our acquisition",
    "accounting polic",
    "accounting standard",
    "accounting principles",
    "accounting guidance",
    "accounted for",
    "was previously",
    "previously served",
    "previously employed",
    "previously held",
    "in accordance with",
    "has served",
    "served as",
    "serves as",
    "prior to joining",
    "to date",
    "remained available",
    "remains available",
    "following our acquisition",
    "following the acquisition",
    "as a result of the acquisition",
    "continue to",
    "continues to",
    "we intend to disclose",
    "is expected to be",
    "from time to time",
    "the purpose of",
    "our strategy",
    "our business plan",
    "financial statements",
    "pro forma",
    "diversity",
    "if any",
    "will be determined",
    "timing and amount",
    "years ended",
    "to-date",
    "thus far",
    "cash provided by",
    "cash used in",
    "gain on",
    "loss on",
    "for example",
    "for instance",
    "currently operate",
    "short seller",
    "limited operating history",
    "statements of cash flows",
    "from nil",
    "the increase was",
    "the decrease was",
    "was attributable to",
    "were attributable to",
    "primarily due to",
    ", launched in",
    "functional currency",
    "continued its strategy",
    "continued our strategy",
    "emerging growth company",
    "favorably impacted",
    "unfavorably impacted",
    "offset in part by",
    "partially offset by",
    "was formed on",
    "was formed in",
    "was formed as",
    "began operating in",
    "continued our efforts",
    "continued its efforts",
    "from year",
    "principal maturities",
    "according to the",
];

/// Whether the words or text exclude the sentence from being a signal.
pub fn excluded(words: &[String], lower: &str) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        let w = w.as_str();
        (HEDGES.contains(&w) && !is_month_may(words, i))
            || (ACCOUNTING.contains(&w) && !is_holder_of_record(words, i))
            || HISTORY.contains(&w)
    }) || PHRASES.iter().any(|p| lower.contains(p))
        || uses_proceeds(words)
        || words.first().is_some_and(|w| OPENERS.contains(&w.as_str()))
        || names_many_years(words)
        || opens_with_a_figure(words)
        || states_a_balance(words)
}

/// A sentence that opens with the date of a balance and says what the company "had" then
/// ("As of September 30, 2022, we had outstanding warrants to purchase ...", "At October 31,
/// 2023, we had agreed to acquire 332 home sites"): a position at a date, not an event.
fn states_a_balance(words: &[String]) -> bool {
    let date_first = match words {
        [as_, of, ..] if as_ == "as" && of == "of" => 2,
        [at, ..] if at == "at" => 1,
        _ => return false,
    };
    let after_date = &words[date_first..words.len().min(date_first + 6)];
    after_date
        .windows(2)
        .any(|pair| matches!(pair[0].as_str(), "we" | "company") && matches!(pair[1].as_str(), "had" | "has" | "have"))
}

/// Opening words that make the sentence background: a clause of time or concession ("When",
/// "Prior to", "Although we initiated our business in 2011 ...") or a participle describing a
/// business ("Launched in 2011, our 2B business ...").
const OPENERS: [&str; 5] = ["when", "prior", "although", "launched", "founded"];

/// Nouns of figures and bookkeeping that, as the sentence's opening subject ("The increase
/// was ...", "The fiscal 2020 amount for Mr. Kulas represents ...", "Our net income ... was
/// primarily attributable to ..."), make it an explanation of a figure, not an event.
const FIGURE_SUBJECTS: [&str; 21] = [
    "increase",
    "number",
    "decrease",
    "decline",
    "change",
    "changes",
    "amount",
    "amounts",
    "activities",
    "net",
    "cost",
    "costs",
    "revenue",
    "revenues",
    "income",
    "loss",
    "losses",
    "expense",
    "expenses",
    "fiscal",
    "balance",
];

fn opens_with_a_figure(words: &[String]) -> bool {
    match words {
        [det, noun, ..] if matches!(det.as_str(), "the" | "our" | "this" | "these" | "its") => {
            FIGURE_SUBJECTS.contains(&noun.as_str())
        }
        // "Net sales in the prior year included ...".
        [net, noun, ..] => {
            net == "net" && matches!(noun.as_str(), "sales" | "revenue" | "revenues" | "income" | "loss")
        }
        _ => false,
    }
}

/// Four or more different years in one sentence ("eight new wheelchair models in 2016, nine in
/// 2017, ...") make a statistic or a history, not one event.
fn names_many_years(words: &[String]) -> bool {
    let mut years: Vec<u32> = words.iter().filter_map(|w| super::dates::year(w)).collect();
    years.sort_unstable();
    years.dedup();
    years.len() >= 4
}

/// "May 1, 2024" and "May 2024" name the month, not a hedge.
fn is_month_may(words: &[String], i: usize) -> bool {
    words[i] == "may" && words.get(i + 1).is_some_and(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit()))
}

/// "stockholders of record" (a dividend's record date) is no bookkeeping.
fn is_holder_of_record(words: &[String], i: usize) -> bool {
    words[i] == "record" && i > 0 && words[i - 1] == "of"
}

/// "used the net proceeds", "proceeds ... were used", "using the net proceeds": a raise
/// told only for what its money paid for.
fn uses_proceeds(words: &[String]) -> bool {
    let Some(p) = words.iter().position(|w| w == "proceeds") else {
        return false;
    };
    let near = |w: &String| matches!(w.as_str(), "used" | "using" | "use");
    words[p.saturating_sub(4)..(p + 6).min(words.len())].iter().any(near)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::classify::words;

    fn ex(s: &str) -> bool {
        excluded(&words(s), &s.to_lowercase())
    }

    #[test]
    fn hedges_accounting_history_and_background_are_excluded() {
        for s in [
            "We may need additional financing in the future, which may not be available on favorable terms.",
            "The Company reviews goodwill for impairment annually as of July 31.",
            "Mr. Morris was previously employed by the Company from 1999 until 2017.",
            "We paid total annual dividends of $57.5 million, $51.9 million, and $51.0 million during 2023, 2022, and 2021, respectively.",
            "Our solutions have been installed in more than 475 million vehicles to date.",
            "Using the net proceeds, plus cash on hand, we repaid certain term loans and financed the acquisition of Brocade.",
            "Following our acquisition of Ventus, IoT Solutions is comprised of two reporting units.",
            "Our net income for the year ended December 31, 2023 was driven by Alpha Mind, a subsidiary we bought in June 2023.",
            "At October 31, 2023, we had agreed to acquire 332 home sites and expect to purchase approximately 8,200 additional home sites from several of our Land Development Joint Ventures over a number of years.",
            "As of September 30, 2022, we had outstanding warrants to purchase an aggregate of 4,899,497 shares of our common stock.",
        ] {
            assert!(ex(s), "{s}");
        }
    }

    #[test]
    fn plain_events_are_not_excluded() {
        for s in [
            "On September 8, 2022, the Company entered into a term loan credit agreement with several financial institutions.",
            "In fiscal year 2023, we announced the acquisition of Smart Apply, Inc., a precision spraying equipment company.",
            "Jeff Krupp, age 52, joined the Company as Senior Vice President, Human Resources, on March 28, 2022.",
            "On May 1, 2024, we opened a new distribution center in Columbus, Ohio, adding 300 jobs.",
            "The Company acquired Flooring Liquidators, Inc. (Flooring Liquidators) in January 2023.",
            "As of March 1, 2024, the Board approved a new share repurchase program of $500 million.",
        ] {
            assert!(!ex(s), "{s}");
        }
    }
}
