//! Candidate statements from one document: the sentences in which a company states an
//! event of its own. A sentence qualifies when it is 40..=400 characters, starts with a
//! capital (or quote/bracket) and ends with `.`, refers to the company ("we", "our", "us",
//! "the Company", the first word of its name, or in its own release its listing "(NYSE: X)"),
//! is no quotation in a release, is not boilerplate (forward-looking disclaimers, references to
//! notes or exhibits, table lead-ins), not a table row, holds no contact data, is not excluded
//! (`exclusions.rs`: hedges, accounting, history, background) and states an event
//! (`classify.rs`). An event dated more than `MAX_TRIGGER_AGE_MONTHS` before its filing keeps
//! its kind (it is what the sentence states) but is no trigger and scores lower: the card tells
//! its age, and newer events rank first. A sentence of a report (10-K, 10-Q, 20-F, a
//! prospectus) that gives no date is background to its description of the business, not an
//! event (blind draws judged 12 of 35 undated served 20-F sentences right, and 18 of 34 undated
//! 10-K ones, docs/signal-rules.md); an 8-K (under its item heading) and a company's release
//! report what happened in their days. In a release, "today" dates the event on the release's
//! day. Quotes are slices of the document's own lines, so they are verbatim by
//! construction; `rank` still verifies each.

use super::classify::{event, words};
use super::contact::has_contact_data;
use super::dates::{event_date, months_before};
use super::documents::DocText;
use super::exclusions::excluded;
use super::items;
use gtms_companies::domain::{PRESS_RELEASE_FORM, SignalKind};

/// An event more than two years older than its filing is no trigger: a seller cannot open with it.
pub const MAX_TRIGGER_AGE_MONTHS: i32 = 24;

/// A date more than five years after the filing is a term (a contract running "through fiscal
/// 2096"), not the date of an event.
pub const MAX_EVENT_LEAD_MONTHS: i32 = 60;

/// What an event older than `MAX_TRIGGER_AGE_MONTHS` loses of its score.
const HISTORY_PENALTY: i32 = 20;

pub const MIN_CHARS: usize = 40;
pub const MAX_CHARS: usize = 400;
/// A release's lead ("Forian Inc. (Nasdaq: FORA) (“Forian” or the “Company”), a leading
/// provider of ..., today announced that it has entered into a definitive merger agreement ...")
/// carries the issuer's description and the whole event in one sentence: up to this long.
pub const MAX_LEAD_CHARS: usize = 600;

/// Phrases that mark a sentence as boilerplate; such sentences are never statements.
const BOILERPLATE: [&str; 24] = [
    "assumes $100",
    "reinvested",
    "forward-looking",
    "forward looking",
    "private securities litigation",
    "safe harbor",
    "undue reliance",
    "incorporated by reference",
    "incorporated herein",
    "table of contents",
    "see note",
    "refer to note",
    "notes to consolidated",
    "notes to the consolidated",
    "the following table",
    "as follows:",
    "set forth below",
    "set forth in",
    "no assurance",
    "cannot assure",
    "can be no assurance",
    "not historical",
    "this prospectus",
    "prospectus supplement",
];

/// Words that show a plan or a schedule rather than a completed or announced event.
const PLAN_WORDS: [&str; 11] = [
    "will",
    "plan",
    "plans",
    "planned",
    "expect",
    "expects",
    "intend",
    "intends",
    "anticipate",
    "anticipates",
    "scheduled",
];

/// Prospectus forms: their plans are offering boilerplate, only completed events count.
const PROSPECTUS_FORMS: [&str; 8] = ["S-1", "S-3", "S-4", "F-1", "F-3", "F-4", "424B", "POS AM"];

/// Words in a company name too common to identify it in a sentence.
const GENERIC_NAME_WORDS: [&str; 16] = [
    "american",
    "first",
    "united",
    "national",
    "general",
    "international",
    "global",
    "new",
    "the",
    "bank",
    "energy",
    "capital",
    "financial",
    "group",
    "holdings",
    "trust",
];

/// A classified, scored sentence and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub kind: SignalKind,
    pub quote: String,
    pub score: i32,
    /// The date the sentence gives its event (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`).
    pub event_date: Option<String>,
    /// Index of the source document in the caller's list.
    pub doc: usize,
    /// Position of the sentence in its document (for stable ordering).
    pub position: usize,
}

/// The lowercase word that names the company in prose ("nvidia" for "NVIDIA CORP"), if
/// its first word is distinctive enough.
pub fn name_word(legal_name: &str) -> Option<String> {
    let first = words(legal_name).into_iter().next()?;
    (first.len() >= 4 && !GENERIC_NAME_WORDS.contains(&first.as_str())).then_some(first)
}

/// A sentence that states a company event: its kind, whether it is done or announced
/// (`trigger`) rather than planned, its score and the date it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessed {
    pub kind: SignalKind,
    pub trigger: bool,
    pub score: i32,
    pub event_date: Option<String>,
}

/// Every qualifying sentence of `text` (a `form` filed on `filed`), in document order.
/// In an 8-K, each sentence stands under the item heading before it, which limits its kind
/// (`items.rs`).
pub fn candidates(text: &DocText, doc: usize, form: &str, filed: &str, name_word: Option<&str>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut position = 0;
    let mut item: Option<&str> = None;
    for line in &text.lines {
        if form.starts_with("8-K")
            && let Some(number) = items::heading(line)
        {
            item = Some(number);
        }
        if line.len() < MIN_CHARS {
            continue;
        }
        for sentence in super::sentences::split_sentences(line) {
            position += 1;
            let sentence = if form == PRESS_RELEASE_FORM { super::press::after_dateline(sentence) } else { sentence };
            let assessed = assess(sentence, form, filed, name_word);
            if let Some(a) = assessed.filter(|a| item.is_none_or(|i| items::allows(i, a.kind))) {
                let (kind, score, event_date) = (a.kind, a.score, a.event_date);
                out.push(Candidate { kind, quote: sentence.to_owned(), score, event_date, doc, position });
            }
        }
    }
    out
}

/// The signal a sentence of a `form` filed on `filed` states, or `None` when it states
/// none. This is the one code path of the extractor and `gtms-edgar signals classify`.
pub fn assess(sentence: &str, form: &str, filed: &str, name_word: Option<&str>) -> Option<Assessed> {
    let len = sentence.chars().count();
    let is_lead = form == PRESS_RELEASE_FORM && sentence.contains(" today ");
    let max = if is_lead { MAX_LEAD_CHARS } else { MAX_CHARS };
    if !(MIN_CHARS..=max).contains(&len) || !sentence.ends_with('.') {
        return None;
    }
    let first = sentence.chars().next()?;
    if !(first.is_uppercase() || matches!(first, '"' | '\u{201c}' | '(')) {
        return None;
    }
    // A quotation in a release is someone's words of praise or opinion, not the release's news.
    if form == PRESS_RELEASE_FORM && matches!(first, '"' | '\u{201c}') {
        return None;
    }
    let lower = sentence.to_lowercase();
    if BOILERPLATE.iter().any(|b| lower.contains(b)) || looks_tabular(sentence) || has_contact_data(sentence) {
        return None;
    }
    let ws = words(sentence);
    let names_company = about_company(&ws, &lower, name_word) || (form == PRESS_RELEASE_FORM && names_a_listing(&ws));
    if ws.len() < 7 || !names_company || excluded(&ws, &lower) {
        return None;
    }
    let found = event(&ws, name_word)?;
    let event_date = event_date(sentence)
        .filter(|d| months_before(d, filed).is_none_or(|m| m >= -MAX_EVENT_LEAD_MONTHS))
        .or_else(|| (form == PRESS_RELEASE_FORM && ws.iter().any(|w| w == "today")).then(|| filed.to_owned()));
    let age = event_date.as_deref().and_then(|d| months_before(d, filed));
    let reports_its_days = form.starts_with("8-K") || form == PRESS_RELEASE_FORM;
    if event_date.is_none() && (found.needs_date || !reports_its_days) {
        return None;
    }
    let planned = ws.iter().any(|w| PLAN_WORDS.contains(&w.as_str()));
    if planned && PROSPECTUS_FORMS.iter().any(|f| form.starts_with(f)) {
        return None;
    }
    let history = is_history(event_date.as_deref(), filed);
    if history
        && found.kind == SignalKind::LeadershipChange
        && ws.iter().any(|w| matches!(w.as_str(), "joined" | "first" | "he" | "she" | "age"))
    {
        // "joined Aramark in October 2021 as", "was first appointed", "He was appointed senior
        // vice president of our Trip.com brand in 2015", "Dickerson, age 66, was named President
        // of Applied in June 2012": a biography.
        return None;
    }
    // What the rules read as an event, the second reading may still find none.
    if super::second_reading::reads_as_no_event(sentence, form, filed) {
        return None;
    }
    let trigger = !planned && !history;
    let score = score(found.kind, sentence, trigger, age, &lower) - if history { HISTORY_PENALTY } else { 0 };
    Some(Assessed { kind: found.kind, trigger, score, event_date })
}

/// Whether an event dated `event_date` lies more than `MAX_TRIGGER_AGE_MONTHS` before `filed`:
/// history, no trigger.
pub fn is_history(event_date: Option<&str>, filed: &str) -> bool {
    event_date.and_then(|d| months_before(d, filed)).is_some_and(|m| m > MAX_TRIGGER_AGE_MONTHS)
}

/// Numbers-heavy text (over a quarter digits) is a flattened table, not prose; dated
/// events with amounts stay below that.
fn looks_tabular(sentence: &str) -> bool {
    let digits = sentence.chars().filter(char::is_ascii_digit).count();
    let dollars = sentence.matches('$').count();
    digits * 100 > sentence.len() * 25 || dollars > 4 || sentence.contains("  ") || sentence.contains(" | ")
}

/// A listing in parentheses ("Alight, Inc. (NYSE: ALIT)"): in a company's own release, the
/// company it names is the issuer, whatever its name's first word ("AMG", "KBR").
fn names_a_listing(ws: &[String]) -> bool {
    ws.iter().any(|w| matches!(w.as_str(), "nyse" | "nasdaq"))
}

fn about_company(ws: &[String], lower: &str, name_word: Option<&str>) -> bool {
    ws.iter().any(|w| matches!(w.as_str(), "we" | "our" | "us"))
        || lower.contains("the company")
        || name_word.is_some_and(|n| ws.iter().any(|w| w == n))
}

/// Kind weight, plus concreteness (a figure, a done or announced event, an event in the
/// filing's own year), minus references to the report itself and length over 300 characters.
fn score(kind: SignalKind, sentence: &str, trigger: bool, age_months: Option<i32>, lower: &str) -> i32 {
    let mut score = i32::try_from(kind.weight()).unwrap_or(0);
    if sentence.chars().any(|c| c.is_ascii_digit()) {
        score += 10;
    }
    if trigger {
        score += 10;
    }
    score += match age_months {
        Some(a) if a <= 12 => 15,
        Some(_) => 5,
        None => 0,
    };
    if lower.contains("form 10-k") || lower.contains("annual report") || lower.contains("form 10-q") {
        score -= 10;
    }
    if sentence.len() > 300 {
        score -= 10;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILED: &str = "2023-11-20";

    fn kind(s: &str) -> Option<&'static str> {
        assess(s, "10-K", FILED, None).map(|a| a.kind.as_str())
    }

    #[test]
    fn a_dated_company_event_qualifies_with_its_date() {
        let s = "In March 2023, we acquired Acme Robotics, a maker of warehouse robots, for $120 million.";
        let a = assess(s, "10-K", FILED, None);
        assert_eq!(a.as_ref().map(|a| a.kind), Some(SignalKind::Acquisition));
        assert_eq!(a.as_ref().and_then(|a| a.event_date.as_deref()), Some("2023-03"));
        assert!(a.as_ref().is_some_and(|a| a.trigger && a.score > 130), "{a:?}");
    }

    #[test]
    fn boilerplate_short_tabular_and_third_party_sentences_do_not_qualify() {
        for s in [
            "This report contains forward-looking statements within the meaning of the Private Securities Litigation Reform Act.",
            "We acquired it.",
            "Revenue 2023 2022 2021 $ 1,234 $ 1,100 $ 998 12.3% 11.1% we expanded 10.1%.",
            "The acquisition of Foo by Bar was completed after regulators approved the merger agreement.",
            "For questions about our expansion, call our investor line at (408) 996-1010 today.",
            "we expanded our plant in Ohio and added two production lines for new products.",
            "We have not sold our retail business and do not plan to sell it this year.",
            "If we raise capital, we may expand our plant in Ohio with new production lines.",
        ] {
            assert_eq!(kind(s), None, "{s}");
        }
    }

    #[test]
    fn an_event_over_two_years_before_its_filing_keeps_its_kind_but_is_no_trigger() {
        let old =
            "In January 2021, the Company refinanced its existing mortgage and entered into a new credit agreement.";
        let (then, now) = (assess(old, "10-K", "2023-10-16", None), assess(old, "10-K", "2022-10-16", None));
        assert_eq!(then.as_ref().map(|a| (a.kind, a.trigger)), Some((SignalKind::CapitalRaise, false)));
        assert_eq!(now.as_ref().map(|a| (a.kind, a.trigger)), Some((SignalKind::CapitalRaise, true)));
        assert!(then.as_ref().map(|a| a.score) < now.as_ref().map(|a| a.score), "{then:?} {now:?}");
    }

    /// A report describes the business at length: its undated sentences are background (blind
    /// draws judged 12 of 35 served 20-F ones and 18 of 34 10-K ones right); the same sentence
    /// with a date is news, and an 8-K or a release reports what happened in its days.
    #[test]
    fn an_undated_sentence_is_background_except_in_an_8k_or_a_release() {
        let undated = "We launched our new generation of battery swapping stations in Shanghai and Hangzhou.";
        let dated = "In March 2025, we launched our new generation of battery swapping stations in Shanghai.";
        for form in ["20-F", "10-K", "10-Q", "424B5"] {
            assert_eq!(assess(undated, form, "2025-04-30", None), None, "{form}");
            assert_eq!(assess(dated, form, "2025-04-30", None).map(|a| a.kind), Some(SignalKind::Product), "{form}");
        }
        for form in ["8-K", PRESS_RELEASE_FORM] {
            assert_eq!(assess(undated, form, "2025-04-30", None).map(|a| a.kind), Some(SignalKind::Product), "{form}");
        }
    }

    /// The misreadings hand-judging found in served cards (issue 25), each a real sentence of
    /// the corpus: running totals, plan and service issuances, notes bought back, litigation,
    /// the company's own purchases, more of a stake already held.
    #[test]
    fn the_misreadings_judges_found_are_no_signals() {
        for (s, filed) in [
            (
                "Since the inception of the initial share repurchase program in fiscal 2012, the Company has repurchased 28,772,715 shares of common stock for $801 million.",
                "2023-10-20",
            ),
            (
                "From July 25, 2022 to October 12, 2022, we issued 126,262 shares of common stock under the 2012 Plan.",
                "2022-11-09",
            ),
            (
                "During the year ended June 30, 2022, the Company issued 4,685,615 shares of common stock for services, valued at $761,954.",
                "2022-10-13",
            ),
            (
                "The Company was named as a defendant in a complaint filed by TRC Electronics, Inc. in March 2023.",
                "2023-11-20",
            ),
            (
                "In connection with our investment in CF Nitrogen, we entered into a supply agreement with CF Nitrogen that entitles us to purchase up to 1.1 million tons of granular urea and 580,000 tons of urea ammonium nitrate (\"UAN\") annually for ratable delivery through fiscal 2096.",
                "2023-10-11",
            ),
            (
                "On March 16, 2022, pursuant to the Stock Purchase Agreement, and upon the satisfaction of the conditions set forth therein, the Company acquired an additional 954,782 shares of RubrYcs Series A-2 preferred stock for $2.5 million.",
                "2022-10-11",
            ),
        ] {
            assert_eq!(assess(s, "10-K", filed, None).map(|a| a.kind), None, "{s}");
        }
        let notes = "In July 2022, we repurchased an additional $0.9 million of Notes, on September 22, 2022, we made a prepayment of $100.0 million on the Term Loan B, and on November 22, 2022, we made a prepayment of $50.0 million on the Term Loan B.";
        assert_ne!(assess(notes, "10-K", "2022-11-29", None).map(|a| a.kind), Some(SignalKind::Buyback));
    }

    #[test]
    fn a_date_years_after_the_filing_is_a_term_not_an_event_date() {
        let s = "In 2023, we entered into a lease agreement for our headquarters that runs through December 2096.";
        assert_eq!(event_date(s).as_deref(), Some("2023"));
        let far = "We entered into a new credit agreement with our lenders, maturing in December 2096.";
        assert_eq!(assess(far, "10-K", FILED, None).and_then(|a| a.event_date), None);
    }

    #[test]
    fn plans_are_signals_without_trigger_but_not_in_prospectuses() {
        let s = "We plan to open 20 new stores in Texas during 2024.";
        let a = assess(s, "10-K", FILED, None);
        assert_eq!(a.as_ref().map(|a| (a.kind, a.trigger)), Some((SignalKind::Expansion, false)));
        assert_eq!(assess(s, "424B5", FILED, None), None);
    }

    #[test]
    fn the_company_name_counts_as_self_reference() {
        let s = "During fiscal 2023, Valvoline added 467 net new stores to the system and expanded its service centers internationally into Canada.";
        assert_eq!(name_word("Valvoline Inc.").as_deref(), Some("valvoline"));
        assert!(assess(s, "10-K", FILED, Some("valvoline")).is_some());
        assert_eq!(assess(s, "10-K", FILED, None), None);
        assert_eq!(name_word("AMERICAN EXPRESS CO"), None);
    }

    /// A sentence that reads as a leadership change and a real 8-K vote outcome (GameSquare,
    /// 2025-12-05; session 15 read it as a regulatory approval, since session 16 the vetoes do
    /// too): under Items 5.07 and 5.03 (votes, bylaws) no kind stands.
    #[test]
    fn an_8k_item_keeps_only_the_kinds_it_reports() {
        let vote = "Each of the remaining matters submitted to a vote of the Company\u{2019}s stockholders, other than Proposal 4, received the requisite votes for approval.";
        let officer = "On December 29, 2025, the Board appointed Jane Roe as Chief Financial Officer of the Company.";
        let doc = DocText::from_lines(vec![
            "Item 5.07 Submission of Matters to a Vote of Security Holders.".into(),
            vote.into(),
            "Item 5.03 Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year.".into(),
            officer.into(),
        ]);
        assert_eq!(assess(vote, "8-K", "2025-12-05", None), None);
        assert!(assess(officer, "8-K", "2025-12-29", None).is_some());
        assert_eq!(candidates(&doc, 0, "8-K", "2025-12-29", None), vec![]);
        assert_eq!(candidates(&doc, 0, "10-K", "2025-12-29", None).len(), 1, "no item headings outside an 8-K");
    }

    /// Real release leads (Alight, Veritone, KBR, AIRO, Montauk; 2025): the event is a noun
    /// after "announced" (an offering closed with the underwriters' option exercised, a joint
    /// venture), the company may be named only by its listing, and "today" is the release's own
    /// date unless the lead states one.
    #[test]
    fn a_release_lead_states_its_event_and_today_is_its_date() {
        let cases = [
            (
                "CHICAGO\u{2013}(BUSINESS WIRE)\u{2013}Alight, Inc. (NYSE: ALIT), a leading cloud-based provider of human capital and technology-enabled services, today announced the appointment of Donna Dorsey as Chief Human Resources Officer (CHRO).",
                Some("alight"),
                SignalKind::LeadershipChange,
                "2025-05-20",
            ),
            (
                "DENVER\u{2013}(BUSINESS WIRE)\u{2013}Veritone, a leader in building human-centered enterprise AI solutions, today announced the pricing of an underwritten public offering of 9,505,705 shares of its common stock.",
                Some("veritone"),
                SignalKind::CapitalRaise,
                "2025-05-20",
            ),
            (
                "KBR, Inc. (NYSE: KBR) today announced a plan, unanimously approved by its Board of Directors, to pursue a tax-free spin-off of its Mission Technology Solutions (MTS) segment.",
                None,
                SignalKind::Divestiture,
                "2025-05-20",
            ),
            (
                "AIRO Group Holdings, Inc. (NASDAQ: AIRO), a company specializing in advanced aerospace and defense technologies, today announced the closing of its upsized underwritten public offering of 4,830,000 shares of its common stock, including the full exercise of the underwriters\u{2019} option to purchase 630,000 additional shares on September 12, 2025.",
                Some("airo"),
                SignalKind::CapitalRaise,
                "2025-09-12",
            ),
            (
                "Emvolon, an MIT spin-off that converts greenhouse gas emissions into carbon-negative fuels and chemicals, and Montauk Renewables, Inc. (NASDAQ:MNTK), a renewable energy company specializing in the management, recovery and conversion of biogas, today announced a joint venture to develop multiple biogas-to-green methanol projects.",
                Some("montauk"),
                SignalKind::Partnership,
                "2025-05-20",
            ),
        ];
        for (s, name, kind, date) in cases {
            let a = assess(s, PRESS_RELEASE_FORM, "2025-05-20", name);
            assert_eq!(a.as_ref().map(|a| a.kind), Some(kind), "{s}");
            assert_eq!(a.and_then(|a| a.event_date).as_deref(), Some(date), "a date the lead states wins: {s}");
        }
        // The listing names the issuer only in its own release.
        assert_eq!(assess(cases[2].0, "8-K", "2025-05-20", None), None);
    }

    /// Real release sentences that name an award or a list, and a quotation: no event.
    #[test]
    fn awards_lists_and_quotations_in_releases_are_no_signals() {
        for s in [
            "Paychex, Inc. (Nasdaq: PAYX), an industry-leading human capital management (HCM) company, has recently been named one of America\u{2019}s Greatest Companies 2025 by Newsweek.",
            "PPG (NYSE:PPG) today announced that it has been named to Newsweek magazine\u{2019}s inaugural America\u{2019}s Greatest Companies 2025 list.",
            "\u{201c}We are pleased to announce that we completed the acquisition of Acme Robotics, which strengthens our offering,\u{201d} said the Chief Executive Officer of the Company.",
        ] {
            assert_eq!(assess(s, PRESS_RELEASE_FORM, "2025-06-01", Some("paychex")), None, "{s}");
        }
    }

    #[test]
    fn candidates_are_slices_of_the_document_lines() {
        let doc = DocText::from_lines(vec![
            "Item 1. Business".into(),
            "We opened 42 new stores in Texas during 2023. Our stores sell groceries and household goods.".into(),
        ]);
        let found = candidates(&doc, 0, "10-K", FILED, None);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, SignalKind::Expansion);
        assert_eq!(found[0].event_date.as_deref(), Some("2023"));
        assert!(doc.contains_verbatim(&found[0].quote));
    }
}
