//! Sentences the cards served that judges read differently, from the blind draws once they were
//! spent (`heldaside_served5.jsonl` to `heldaside_served15.jsonl`, `heldaside_served17.jsonl` and
//! `release_leads.jsonl`, sessions 23 to 31), each pinned to what the rules now make of it (`docs/signal-rules.md`), in
//! `fixtures/signals/misread.jsonl`: `kind` null is no signal (a description, background,
//! someone else's event, an accounting note); a kind is the event the sentence states.

use gtms_companies::domain::SignalKind::{self, *};
use gtms_edgar::extract::signals::verdict;

/// One sentence a judge read otherwise, and the kind (or `None`) the rules must now give it.
#[derive(serde::Deserialize)]
struct Misread {
    text: String,
    form: String,
    filed: String,
    company: String,
    kind: Option<SignalKind>,
}

#[test]
fn the_served_sentences_judges_read_otherwise_are_read_as_they_judged() {
    let lines = include_str!("fixtures/signals/misread.jsonl");
    let mut wrong = Vec::new();
    for line in lines.lines() {
        let row: Misread = serde_json::from_str(line).expect("misread.jsonl: one JSON object per line");
        let got = verdict(&row.text, &row.form, &row.filed, Some(&row.company)).kind;
        if got != row.kind {
            wrong.push(format!("want {:?}, got {got:?}: {}", row.kind, row.text));
        }
    }
    assert!(lines.lines().count() >= 300, "the pinned sentences are all read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_release_lead_is_read_up_to_600_characters_and_other_sentences_up_to_400() {
    let lead = "Forian Inc. (Nasdaq: FORA) (\u{201c}Forian\u{201d} or the \u{201c}Company\u{201d}), a leading provider of data analytics and information solutions, today announced that it has entered into a definitive merger agreement (the \u{201c}Merger Agreement\u{201d}) providing for Forian to be acquired, in an all-cash transaction, by an entity affiliated with a consortium of investors led by Max Wygod, Chairman and Chief Executive Officer, together with certain other senior executives and existing stockholders of the Company (collectively, the \u{201c}Consortium\u{201d}).";
    assert!(lead.chars().count() > 400);
    let got = verdict(lead, "press release", "2026-04-03", Some("Forian Inc."));
    assert_eq!(got.kind, Some(Acquisition));
    assert_eq!(got.event_date.as_deref(), Some("2026-04-03"));
    // The same length in a filing, or in a release without its lead's "today", is no statement.
    assert_eq!(verdict(lead, "8-K", "2026-04-03", Some("Forian Inc.")).kind, None);
    let body = lead.replace(" today ", " ");
    assert_eq!(verdict(&body, "press release", "2026-04-03", Some("Forian Inc.")).kind, None);
}

/// Real sentences blind draws of served cards misread in sessions 23 and 24 (read as 10-K
/// sentences): whose shares were sold, with whom a share purchase agreement was signed, what a
/// contract or an option is for, and what is told only as a figure or a plan's terms.
#[test]
fn shares_contracts_and_options_are_read_by_what_they_are() {
    for (s, filed, want) in [
        (
            "During the first nine months of 2025, the Company released from escrow \u{20ac}14.2 billion, or $15.4 billion, to Ireland in connection with the State Aid Decision, which fully settled the obligation.",
            "2025-08-01",
            None,
        ),
        (
            "During the year ended September 30, 2021, the Company sold 1.7 million shares of Energizer common stock for cash proceeds of $73.1 million.",
            "2022-11-22",
            Some(Divestiture),
        ),
        (
            "On October 27, 2022, we sold our entire investment of 1,677,299 shares of Limoneira common stock for gross proceeds of approximately $18.5 million.",
            "2022-12-20",
            Some(Divestiture),
        ),
        (
            "On March 11, 2025, we completed the sale of an additional 270,000 Class B Ordinary Shares at the public offering price of $4.00 per share, pursuant to the full exercise by the underwriters of the over-allotment option granted to them in connection with the IPO.",
            "2025-06-17",
            Some(CapitalRaise),
        ),
        (
            "In June 2020, we completed the issuance and sale of $350 million in aggregate principal amount of the Companys 8.625% Senior Secured Notes due 2025 at the offering price of 98.5% of the aggregate principal amount.",
            "2022-11-29",
            Some(CapitalRaise),
        ),
        (
            "On February 10, 2023, the Company entered into a share purchase agreement with three investors, pursuant to which we issued a total of 1,926,155 ordinary shares, par value US$0.000002, of the Company to the investors for an aggregate issue price of $9.4 million (RMB65,000,000).",
            "2025-01-02",
            Some(CapitalRaise),
        ),
        (
            "In October 2024, the Company signed strategic cooperation framework agreement (the \u{201c}Agreement\u{201d}) with Lianyungang\u{2019}s Haizhou High-Tech district, strengthening collaboration in AI and digital economy.",
            "2025-01-02",
            Some(Partnership),
        ),
        (
            "In December 2015, the Company signed an investment contract with Haikou State High Technology Industry Development Zone to build the EV production facility in Haikou City for the capacity of an annual production of 100,000 EV products.",
            "2025-04-28",
            Some(Expansion),
        ),
        (
            "We expanded our operations in Europe in 2020 with the addition of Lixoft in Paris, France.",
            "2022-10-28",
            Some(Acquisition),
        ),
        (
            "In January 2022, we reported positive top-line results from the placebo-controlled Phase 1 clinical trial (ANAVEX\u{ae}3-71-001) in development for the treatment of neurodegenerative diseases including Frontotemporal Dementia (FTD), for which ANAVEX\u{ae}3-71 has been granted Orphan Drug Designation by the FDA.",
            "2022-11-28",
            Some(Product),
        ),
        (
            "On July 5, 2019, pursuant to a grant of stock options to our Board and executives for their services, the Company granted a stock option to purchase 1,008,000 and 50,000 shares of our common stock.",
            "2021-11-21",
            None,
        ),
        (
            "In September and October 2022 and March 2023, in connection with entering into consulting agreements, we issued consultants 2,300,000 shares of our common stock valued at an average price of $0.19 per share for a total value of $433,800.",
            "2023-10-30",
            None,
        ),
        (
            "In 2022, an equity method investee of the Company completed an initial public offering, upon which the Company lost significant influence over the investee due to its reduced voting rights and changes in the investee\u{2019}s governing documents.",
            "2025-04-11",
            None,
        ),
        (
            "The Company secured a 3-year term renewable management contract with Mr. Bunka effective January 1, 2022, with a base compensation of C$29,706 per month with an annual increase of 1.25 times the annual Canadian inflation rate.",
            "2022-11-28",
            None,
        ),
        ("On September 16, 2021, the Company obtained Stockholder Approval.", "2022-12-21", None),
        (
            "For the fiscal year ended December 31, 2024, we sold cars to our SME customers with lower unit price, which led to lower GMV with the increase numbers of units.",
            "2025-05-15",
            None,
        ),
        (
            "In the years ended September 30, 2023, 2022 and 2021, the Company completed acquisitions of multiple businesses.",
            "2023-12-14",
            None,
        ),
        (
            "In March 2020, we repurchased at par all $1.065 billion principal amount outstanding of our senior unsecured notes due in 2047.",
            "2022-02-24",
            None,
        ),
        (
            "During the fiscal third quarter ended October 2, 2022, the Company sold all of its shares in argenx SE for proceeds of $0.6 billion.",
            "2022-10-27",
            Some(Divestiture),
        ),
        (
            "In January 2025, we entered into a distribution agreement with Guangzhou Gloria Biosciences Co., Ltd. for the distribution of YuTuo\u{ae} (Zimberelimab).",
            "2025-03-31",
            Some(Partnership),
        ),
        (
            "In November 2018, the Company entered into an equity investment agreement with Dogness Network to invest RMB8.0 million ($1,100,800) for 10% of the ownership interest in Dogness Network, with the remaining 90% of the ownership interest owned by an unrelated shareholder.",
            "2024-10-17",
            Some(Acquisition),
        ),
        (
            "She joined Aramark in October 2021 as President and CEO of Aramark Uniform Services to develop and launch an accelerated growth and value creation strategy for the company, while also preparing the Company to be a standalone, independent public company.",
            "2023-12-21",
            None,
        ),
        ("Dr. Hudson was first appointed as an AbbVie corporate officer in July 2019.", "2024-02-20", None),
        (
            "In June 2023, we released our sustainability report for fiscal 2022, which highlights certain aspirations and goals related to ESG matters.",
            "2023-12-20",
            None,
        ),
        (
            "From April 2022 to March 2025, the Company entered into several loan agreements with aggregate principal amount of RMB16.2 million.",
            "2025-07-21",
            None,
        ),
        (
            "Pre-opening costs in 2024 were mainly related to the Studio City Cinema opened in June 2024.",
            "2025-03-21",
            None,
        ),
    ] {
        assert_eq!(verdict(s, "10-K", filed, None).kind, want, "{s}");
    }
}
