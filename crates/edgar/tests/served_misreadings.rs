//! Sentences the cards served that judges read differently, from the blind draws once they were
//! spent (`heldaside_served5.jsonl`, `release_leads.jsonl`, `heldaside_served6.jsonl`; session 25), each pinned to what the
//! rules now make of it (`docs/signal-rules.md`). `None`: no signal (a description, background,
//! someone else's event, an accounting note); a kind: the event the sentence states.

use gtms_companies::domain::SignalKind::{self, *};
use gtms_edgar::extract::signals::verdict;

#[test]
fn the_served_sentences_judges_read_otherwise_are_read_as_they_judged() {
    let table: &[(&str, &str, &str, &str, Option<SignalKind>)] = &[
        (
            "(1) Represents activity related to our remaining termination benefits and vacant space liabilities, primarily in our International segment, for our Renew Blue restructuring program, which began in the fourth quarter of fiscal 2013.",
            "10-K",
            "2017-03-24",
            "BEST BUY CO INC",
            None,
        ),
        (
            "On May 8, 2023, the Company entered into a Master Mining Services Agreement with Blockbreakers, pursuant to which Blockbreakers agreed to provide the Company with four (4) MW of additional mining capacity at its hosting facility in Canada.",
            "10-Q",
            "2025-11-14",
            "Bit Digital, Inc",
            Some(Partnership),
        ),
        (
            "When we introduced FICO\u{ae} Score 9 in 2015, it also made use of newly available data such as reported rental payment history, while also de-emphasizing medical debt and disregarding paid collections.",
            "10-K",
            "2023-11-08",
            "FAIR ISAAC CORP",
            None,
        ),
        (
            "In February 2017, we entered into a management services agreement with our private equity sponsors in connection with our acquisition in February 2017.",
            "10-K",
            "2022-11-30",
            "Leslie's, Inc.",
            None,
        ),
        (
            "On July 5 and July 10, 2024, the Company issued a total of 827,589 ordinary shares upon delivery of notices from the investors exercising the new warrants in full through Alternative Cashless Exercise.",
            "20-F",
            "2025-01-02",
            "Global Mofy AI Ltd",
            None,
        ),
        (
            "In 2023, we launched our first 200+ layer NAND data center SSD, and qualification has completed at some customers and is in progress at other customers largely to support AI cluster installations.",
            "10-K",
            "2023-10-06",
            "MICRON TECHNOLOGY INC",
            None,
        ),
        (
            "On December 31, 2022, Suzhou Shengfeng, one of VIE subsidiaries declared a dividend of approximately $2.5 million based on the subsidiary\u{2019}s performance up to October 31, 2022, of which approximately $0.3 million was paid to the non-controlling shareholders.",
            "20-F",
            "2025-03-28",
            "SHENGFENG DEVELOPMENT Ltd",
            None,
        ),
        (
            "During the year ended June 30, 2022 in connection with one of the subscription agreements, the Company issued 250,000 shares as an equity kicker valued at $43,753, which has been expensed as a financing costs.",
            "10-K",
            "2022-10-13",
            "XERIANT, INC.",
            None,
        ),
        (
            "On May 14, 2012, we signed a global R&D, Marketing and Technology License Agreement with Desmet Ballestra Group s.a. (Desmet), a Belgian company that is actively marketing the NANO Neutralization\u{ae} System, the key component of which is our Nano Reactor\u{ae} to soybean and other vegetable oil refiners.",
            "10-K",
            "2023-10-03",
            "Cavitation Technologies, Inc.",
            Some(Partnership),
        ),
        (
            "On September 11, 2023, the Company entered into another underwriting agreement with Barclays Capital, Inc., and the Selling Stockholders, pursuant to which the Selling Stockholders agreed to sell 2,500,000 shares of common stock, at a purchase price of $21.00 per share (collectively, \"Offerings\").",
            "10-K",
            "2023-12-11",
            "Blue Bird Corp",
            None,
        ),
        (
            "For the three and six months ended June 30, 2022, restructuring and other initiatives primarily included exit activities at our Power business related to our new coal build wind-down actions announced in the third quarter of 2021, which included the exit of certain product lines, closing certain manufacturing and office facilities, and workforce reduction programs.",
            "10-Q",
            "2023-07-25",
            "GENERAL ELECTRIC CO",
            None,
        ),
        (
            "On March 29, 2021, the Company issued 88,000 common shares to a non-related party at a price of $0.25 per share for a total value of $22,000 as debt issuance costs related to the issuance of convertible debt.",
            "10-K",
            "2022-11-14",
            "Tego Cyber, Inc.",
            None,
        ),
        (
            "As previously announced, the Company acquired Del Taco Restaurants, Inc. (Del Taco) in the second quarter of 2022, and was permitted to exclude the Del Taco segment from the 2022 assessment of internal control over financial reporting as that was the first year following the date of acquisition.",
            "10-K",
            "2023-11-21",
            "JACK IN THE BOX INC",
            None,
        ),
        (
            "During fiscal 2022, the Company completed the acquisition accounting for the Acquisition.",
            "10-K",
            "2023-11-21",
            "ANALOG DEVICES INC",
            None,
        ),
        (
            "He was appointed senior vice president of our Trip.com brand in 2015, chief executive officer of our air ticketing business in 2014, and vice president of technology in 2013.",
            "20-F",
            "2025-04-11",
            "Trip.com Group Ltd",
            None,
        ),
        (
            "On February 4, 2022, the Company issued 6,620 shares of restricted stock in connection with its acquisition of Streetlight to certain stockholders in exchange for certain of their vested stock awards in StreetLight.",
            "10-K",
            "2022-11-21",
            "JACOBS SOLUTIONS INC.",
            None,
        ),
        (
            "Additionally, we settled the remaining guarantee liabilities for historically-facilitated loans with WeBank in July 2020.",
            "20-F",
            "2025-04-30",
            "Uxin Ltd",
            None,
        ),
        (
            "Manatt, Phelps & Phillips, LLP, counsel to the Company, has issued an opinion to the Company with respect to the validity of the Registered Shares issued and sold in the offering, a copy of which is filed as Exhibit 5.1 to this Current Report on Form 8-K.",
            "8-K",
            "2025-09-10",
            "CaliberCos Inc.",
            None,
        ),
        (
            "In 2023, with an active pipeline of commercial real estate development projects, we introduced a new green and energy-efficient equipment purchasing guideline which mandates the use of high energy efficiency equipment and environmentally friendly materials for new developments and major asset refurbishments.",
            "10-K",
            "2023-11-15",
            "RMR GROUP INC.",
            None,
        ),
        (
            "GeoVax Scientific Advisory Board: Appointed Teresa Lambe, PhD, OBE, FMedSci, professor of Vaccinology and Immunology at the Oxford Vaccine Group within the University of Oxford, to the Scientific Advisory Board.",
            "press release",
            "2024-11-12",
            "GeoVax Labs, Inc.",
            None,
        ),
        (
            "Clinical trial expenses increased in 2023 as we recruited more patients into the Bria-IMT\u{2122} trial and began setting up the Bria-OTS\u{2122} trial.",
            "10-K",
            "2023-10-25",
            "BriaCell Therapeutics Corp.",
            None,
        ),
        (
            "On January 13, 2026, the Company released a press release announcing that shareholders of Semler Scientific, Inc. (\"Semler\") voted to approve the acquisition of Semler by Strive.",
            "8-K",
            "2026-01-13",
            "Strive, Inc.",
            None,
        ),
        (
            "On October 27, 2025, we issued 3.9 million of warrant dividends on our common stock which have an exercise price of $22.50 per share.",
            "10-Q",
            "2025-11-19",
            "DeFi Development Corp.",
            Some(Dividend),
        ),
        (
            "However, in the Original Form 8-K, the Company inadvertently reported net proceeds of approximately $123,687,255, as it failed to include (i) the gross proceeds received in cryptocurrency and (ii) certain investment amount directly settled with the Company in its calculation of net proceeds.",
            "8-K/A",
            "2025-09-08",
            "CleanCore Solutions, Inc.",
            None,
        ),
        (
            "We temporarily closed our offices and production facilities in early February 2020, as required by relevant PRC local authorities and in observation of the Chinese New Year national holiday.",
            "20-F",
            "2025-04-16",
            "SAMFINE CREATION HOLDINGS GROUP Ltd",
            None,
        ),
        (
            "In addition, the Sponsor and the Company\u{2019}s directors and officers have agreed to waive their redemption rights with respect to their Founder Shares, Private Placement Shares and any Public Shares held by them in connection with the completion of the Business Combination.",
            "8-K",
            "2025-12-12",
            "Twenty One Capital, Inc.",
            None,
        ),
        (
            "In September 2023, the Company entered into an agreement with certain non-U.S. investors to sell an aggregate of 15,000,000 shares of Class A ordinary shares at a price of $0.233 with a total consideration amounting to US$3.5 million.",
            "20-F",
            "2025-07-21",
            "Boqii Holding Ltd",
            Some(CapitalRaise),
        ),
        (
            "The ticker symbol changes come on the heels of last week\u{2019}s announcement that Evernorth Holdings, Inc., a newly formed Nevada corporation (\u{201c}Evernorth\u{201d}), has executed a business combination agreement with Armada II (the \u{201c}Business Combination Agreement\u{201d}) which will result in a new company that has raised over $1 billion in gross proceeds to fund open-market purchases of XRP.",
            "8-K",
            "2025-10-29",
            "Armada Acquisition Corp. II",
            None,
        ),
        (
            "In addition, in a concurrent private placement (the \u{201c}Concurrent Private Placement\u{201d}) on September 29, 2023, the Company agreed to sell to certain other investors an aggregate of 100,000 common shares, par value $1.0, at $100.0 per share.",
            "20-F",
            "2025-05-09",
            "ReTo Eco-Solutions, Inc.",
            Some(CapitalRaise),
        ),
        (
            "Arrive AI (NASDAQ:ARAI), a pioneering autonomous delivery network anchored by patented AI-powered Arrive Points, and Hancock Health, a regional hospital and member of the Mayo Clinic Care Network located in Greenfield, IN, today announced the launch of a two-year partnership.",
            "press release",
            "2025-10-30",
            "Arrive AI Inc.",
            Some(Partnership),
        ),
        (
            "In 2023, the Company started to introduce sales partners under the commercial bank partnership model, where we require the sales partners to contribute the CRMP from a range of 5% to 10% of the loan principal they introduced.",
            "20-F",
            "2025-04-30",
            "CNFinance Holdings Ltd.",
            None,
        ),
        (
            "Recently, we introduced eight new wheelchair models to our customers in 2016, nine in 2017, five in 2018, seven in 2019, seven in 2020, eight in 2021, fifteen in 2022, fourteen in 2023.",
            "20-F",
            "2025-01-24",
            "Jin Medical International Ltd.",
            None,
        ),
        (
            "We launched our first chain of cured meat claypot rice restaurants in July 2024.",
            "20-F",
            "2025-04-30",
            "Wing Yip Food Holdings Group Ltd",
            Some(Expansion),
        ),
        (
            "In August 2024, we completed our first major gold acquisition of 1,000 kilograms for approximately $64.56 million from Macau Rongxin Precious Metals Technology Co., Ltd., marking our entry into large-scale gold trading.",
            "20-F",
            "2025-04-30",
            "Blue Hat Interactive Entertainment Technology",
            None,
        ),
        (
            "Northern Trust today announced an expansion of its relationship with Brandes Investment Partners (Asia) Pte Ltd, part of the Brandes group of companies that includes Brandes Investment Partners L.P. to support the launch of the Brandes Global Value Fund in Australia, with global custody and fund administration servicing.",
            "press release",
            "2025-09-18",
            "NORTHERN TRUST CORP",
            Some(Customer),
        ),
        (
            "ABVC BioPharma, Inc. (NASDAQ: ABVC), a clinical-stage biopharmaceutical company focused on innovative treatments in ophthalmology, CNS (central nervous system), and oncology/hematology, today announced that its majority-owned subsidiary, AiBtl BioPharma Inc., has signed a strategic share-based land acquisition agreement with local landholders in central Taiwan.",
            "press release",
            "2025-04-03",
            "ABVC BIOPHARMA, INC.",
            None,
        ),
        (
            "Focus Universal Inc. (NASDAQ: FCUV) (\"Focus\" or the \"Company\"), a provider of patented hardware and software design technologies for Internet of Things (IoT), 5G and SEC Financial Reporting AI-Driven Automation Software, is pleased to announce today that the company has launched the Universal Smart IoT App in Apple\u{2019}s app store and Google Play\u{2019}s app store.",
            "press release",
            "2025-10-14",
            "FOCUS UNIVERSAL INC.",
            None,
        ),
        (
            "August 29, 2024 - Aclarion, Inc., (\u{201c}Aclarion\u{201d} or the \u{201c}Company\u{201d}) (Nasdaq: ACON, ACONW), a healthcare technology company that is leveraging biomarkers and proprietary augmented intelligence algorithms to help physicians identify the location of chronic low back pain, announced today the expansion of the multi-center CLUE Trial to New Jersey.",
            "press release",
            "2024-08-29",
            "Aclarion, Inc.",
            Some(Product),
        ),
        (
            "Healthcare Triangle, Inc. (Nasdaq: HCTI) (\u{201c}HCTI\u{201d} or the \"Company\"), a leader in digital transformation solutions including managed services, cloud enablement, cybersecurity, data analytics, and AI for the healthcare and life sciences industries, today announced the appointment of Ms Sujatha Ramesh as its new Chief Operating Officer (COO).",
            "press release",
            "2025-03-18",
            "Healthcare Triangle, Inc.",
            Some(LeadershipChange),
        ),
        (
            "Healthcare Triangle, Inc. (Nasdaq: HCTI) (\u{201c}HCTI\u{201d} or the \"Company\"), a visionary leader in digital transformation solutions for the healthcare and life sciences industries, today announced a transformative expansion with the launch of QuantumNexis, Inc. (\u{201c}QuantumNexis\u{201d}), a new subsidiary focused on AI-powered SaaS solutions for the global healthcare market.",
            "press release",
            "2025-05-27",
            "Healthcare Triangle, Inc.",
            Some(Expansion),
        ),
        (
            "(23) On March 9, 2023, the Company closed a $10.0 million line-of-credit facility with a lender bank evidenced by a revolving promissory note, with an initial draw of $10.0 million at closing.",
            "10-K",
            "2023-12-14",
            "RCI HOSPITALITY HOLDINGS, INC.",
            Some(CapitalRaise),
        ),
        (
            "Especially for the identified material weakness related to internal control, we will hire experts to improve and test our internal control and the set up a series of standard and recurring internal audit work procedures before July 2023.",
            "10-K",
            "2023-11-13",
            "ATIF Holdings Ltd",
            None,
        ),
        (
            "In connection with this note, the Company paid an additional $13,250 in cash transactions, issued 88,000 common shares valued at $22,000 in transaction costs, and issued 1,100,000 warrants exercisable at $0.25 per share, expiring on March 25, 2023.",
            "10-K",
            "2022-11-14",
            "Tego Cyber, Inc.",
            None,
        ),
        (
            "Net cash provided by financing activities in fiscal 2021 of $53.8 million was primarily related to net proceeds raised during our IPO in November 2020 of $458.6 million, partially offset by a $396.1 million repayment of long-term debt.",
            "10-K",
            "2022-11-30",
            "Leslie's, Inc.",
            None,
        ),
        (
            "In June 2021, we entered into a loan agreement with UK Wisdom Limited to provide an interest-free loan of US$3 million for a one-year term from June 8, 2021 to June 7, 2022.",
            "20-F",
            "2025-04-29",
            "Ucommune International Ltd",
            None,
        ),
        (
            "During the fiscal year ended September 30, 2020, the Company repurchased 142,439 shares of its common stock for $0.6 million to cover the income tax obligation on vested employee equity awards.",
            "10-K",
            "2022-12-29",
            "REPUBLIC AIRWAYS HOLDINGS INC.",
            None,
        ),
        (
            "Datavault AI Inc. (Nasdaq: DVLT), a pioneer in AI-driven data monetization, today unveiled the global expansion of its VerifyU platform to address surging demand for secure, real-time identity verification amid escalating scrutiny of fraudulent military service claims.",
            "press release",
            "2025-08-25",
            "Datavault AI Inc.",
            Some(Expansion),
        ),
        (
            "The fiscal 2022 activities primarily related to our fiscal 2022 restructuring plan within our entertainment organization to align resources with a revised business strategy and outlook, and to support our higher priority focus areas.",
            "10-K",
            "2023-11-17",
            "Dolby Laboratories, Inc.",
            None,
        ),
        (
            "During fiscal year 2020, the Company sold 11.8 million shares of Idorsia LTD (Idorsia), or its 8.3% ownership in the company at that time.",
            "10-K",
            "2022-02-17",
            "JOHNSON & JOHNSON",
            Some(Divestiture),
        ),
        (
            "On April 18, 2025, the Company entered into a JV Termination Agreement to terminate the strategic partnership with Foodnamoo.",
            "20-F",
            "2025-04-30",
            "Wing Yip Food Holdings Group Ltd",
            None,
        ),
        (
            "(3)In 2022, the gain on divestiture of subsidiaries represents the pre-tax gain on the sale of bswift, which the Company sold in November 2022, and the pre-tax gain on the sale of PayFlex, which the Company sold in June 2022.",
            "10-K",
            "2023-02-08",
            "CVS HEALTH Corp",
            None,
        ),
        (
            "In fiscal year 2023 we released an additional $5.2 of reserves related to the sale of PMD.",
            "10-K",
            "2023-11-16",
            "Air Products & Chemicals, Inc.",
            None,
        ),
        (
            "In February 2021, the Company signed a contribution agreement with the Canadian governments SIF (2021 SIF Agreement), the Company was eligible to receive cash reimbursements up to C$14.1 million in the aggregate for certain R&D expenses related to our EB05 clinical development program.",
            "10-K",
            "2023-12-15",
            "Edesa Biotech, Inc.",
            None,
        ),
        (
            "The Offer will be conditioned on certain customary closing conditions, including that at least a majority of outstanding shares of the Company are acquired by the Purchaser (either through the contribution by the Consortium Stockholders or tendered in the Offer).",
            "press release",
            "2025-08-25",
            "Forian Inc.",
            None,
        ),
        (
            "Our Board of Directors approved and paid quarterly cash dividends of $0.25 per common share in fiscal 2023 and $0.225 per common share in fiscal 2022.",
            "10-K",
            "2023-11-17",
            "HORTON D R INC /DE/",
            None,
        ),
        (
            "For example, while in October 2022 we received approval of our European patent application covering up to 36 countries, in 2023 we made the decision to limit payment of the corresponding fees to receive the official patent grant to select jurisdictions within Europe, while allowing the patents to lapse in other European jurisdictions for failure to pay the fee, in order to manage costs.",
            "10-K",
            "2023-10-13",
            "GHST World Inc.",
            None,
        ),
        (
            "On April 30, 2021, the Company and Walmart Inc. (Walmart) entered into a Subscription Agreement (the Subscription Agreement), in which the Company issued to Walmart warrants to acquire up to an aggregate of 714,022 shares of the Legacy Warehouse Class A Units (the Warrants and the Class A Units issuable thereunder, the Warrant Units), subject to certain vesting conditions.",
            "10-K",
            "2022-12-09",
            "Symbotic Inc.",
            None,
        ),
        (
            "We completed three acquisitions in fiscal year 2023 and four acquisitions in fiscal year 2022, all of which qualified as business combinations.",
            "10-K",
            "2023-12-14",
            "Broadcom Inc.",
            None,
        ),
        (
            "During the fiscal year ended September 30, 2023, the Company declared dividends of $0.76 per share of common stock.",
            "10-K",
            "2023-11-16",
            "KULICKE & SOFFA INDUSTRIES INC",
            None,
        ),
        (
            "However, towards the end of fiscal year 2023 inventory began to stabilize and we exited the fiscal year with normalized inventory levels.",
            "10-K",
            "2023-12-18",
            "HP INC",
            None,
        ),
        (
            "On March 22, 2023, the Company announced an expansion into the liquor industry with the launch of lifestyle of spirits, focused on the launch of an exclusive premium aged whiskey under the \u{2018}Tover brand name.",
            "10-K",
            "2023-12-07",
            "NITCHES INC",
            Some(Expansion),
        ),
        (
            "By the end of the first quarter of 2024, we had settled these outstanding amounts with both Daniel Jonsson and GreenBlocks ehf.",
            "10-Q",
            "2025-11-14",
            "Bit Digital, Inc",
            None,
        ),
        (
            "In 2015, Zhongjin Jing\u{2019}ao obtained a value-added telecommunications businesses operation license as the Company plans to open its own internet platform for selling and promoting products directly to its end-users.",
            "20-F",
            "2025-01-24",
            "Jin Medical International Ltd.",
            Some(Regulatory),
        ),
        (
            "On May 5, 2024, the Company entered into a services agreement with TraDigital Marketing Group, LLC (\u{201c}TraDigital\u{201d}), a Delaware limited liability company specializing in digital marketing and investor relations.",
            "20-F",
            "2025-05-15",
            "CDT Environmental Technology Investment Holdings Ltd",
            None,
        ),
        (
            "On September 9, 2024, we entered into an Ordinary Share Purchase Agreement (the \u{201c}Purchase Agreement\u{201d}) with White Lion Capital, LLC (\u{201c}White Lion\u{201d}).",
            "20-F",
            "2025-01-28",
            "Bon Natural Life Ltd",
            None,
        ),
        (
            "In December 2024, the Company and certain related parties entered into settlement agreement, pursuant to which all parties agreed that the Company\u{2019}s receivables of $9,181,726 due from related parties was net off against the Company\u{2019}s payables of $9,181,726 due to related parties.",
            "20-F",
            "2025-04-23",
            "Able View Global Inc.",
            None,
        ),
        (
            "Alongside its accumulation strategy, Twenty One plans to build a set of Bitcoin-centric operating businesses intended to generate recurring revenue and expand institutional engagement with Bitcoin.",
            "8-K",
            "2025-12-09",
            "Twenty One Capital, Inc.",
            None,
        ),
        (
            "In 2023, Beijing Momo IT and one of our subsidiaries, Beijing Leguanxing Information Technology Co., Ltd., entered into a cooperation agreement with Beijing Electronics Zone Co., Ltd. for the purchase of a real property located in Beijing, China with a total floor area of approximately 34,000 square meters for a total consideration of RMB846.0 million, for business purposes.",
            "20-F",
            "2025-04-28",
            "Hello Group Inc.",
            Some(Expansion),
        ),
        (
            "On December 25, 2024, we signed a share transfer agreement with a third party to sell its 100% equity interest in USCNHK Group Limited (\u{201c}USCNHK\u{201d}) and its wholly owned subsidiaries, Tantech Holdings (Lishui) Co., Ltd., Hangzhou Tanbo Technology Co., Ltd. and Lishui Xincai Industrial Co., Ltd.",
            "20-F",
            "2025-05-15",
            "TANTECH HOLDINGS LTD",
            Some(Divestiture),
        ),
        (
            "On April 10, 2022, 19 July, 2022 and 18 October, 2022, the Company entered into a loan agreement with a third party, Muliang Agriculture Limited, to lend $280,000, $20,000 and $5,000 at the interest rate of 1% for one year as working capital support.",
            "20-F",
            "2025-05-13",
            "AGM GROUP HOLDINGS, INC.",
            None,
        ),
        (
            "On February 8, 2019, the Company sold to Chardan, for $100, an option to purchase up to 375,000 Units exercisable at $11.50 per Unit (or an aggregate exercise price of $4,312,500) exercisable on the completion of the SPAC Transaction on May 7, 2020.",
            "20-F",
            "2025-04-22",
            "Scienjoy Holding Corp",
            None,
        ),
        // Stockholders who bought in a private placement are named as sellers of a resale: the
        // placement itself is the company's raise (only "the Selling Stockholders agreed to sell" is not).
        (
            "Such securities were issued and sold to the selling stockholders in a private placement (the \u{201c}Private Placement\u{201d}) pursuant to a subscription agreement among us and such selling stockholders dated December 19, 2024 (the \u{201c}Subscription Agreement\u{201d}).",
            "S-3",
            "2025-03-31",
            "Whitehawk Therapeutics, Inc.",
            Some(CapitalRaise),
        ),
        // Release leads past 400 characters, read once they were let in (session 25).
        (
            "GeoVax Labs, Inc. (Nasdaq: GOVX), a clinical-stage biotechnology company developing multi-antigen vaccines and immunotherapies for infectious diseases and cancer, today commented on the U.S. Food and Drug Administration\u{2019}s recent approval of Keytruda\u{ae} (pembrolizumab) for use in resectable, locally advanced head and neck squamous cell carcinoma (HNSCC) tumors expressing PD-L1 as determined by an FDA approved test.",
            "press release",
            "2025-06-24",
            "GeoVax Labs, Inc.",
            None,
        ),
        (
            "Duos Technologies Group, Inc. (\u{201c}Duos\u{201d} or the \u{201c}Company\u{201d}) (Nasdaq: DUOT), through its operating subsidiary Duos Edge AI, Inc. (\u{201c}Duos Edge AI\u{201d}), a provider of adaptive, versatile and streamlined Edge Data Center (\u{201c}EDC\u{201d}) solutions tailored to meet evolving needs in any environment, today announced the expansion of its strategic partnership with FiberLight, LLC, a leading provider of high-capacity fiber optic networks and connectivity services.",
            "press release",
            "2025-08-15",
            "DUOS TECHNOLOGIES GROUP, INC.",
            Some(Partnership),
        ),
        (
            "Healthcare Triangle, Inc. (Nasdaq: HCTI) (\u{201c}HCTI\u{201d} or the \"Company\"), a leader in digital transformation solutions including managed services, cloud enablement, and data analytics for the healthcare and life sciences industries - today announced multiple strategic customer wins and a major expansion of its AI and EHR integration services - advancing its position as a trusted innovation partner to health systems nationwide.",
            "press release",
            "2025-07-10",
            "Healthcare Triangle, Inc.",
            Some(Customer),
        ),
    ];
    let mut wrong = Vec::new();
    for (text, form, filed, company, want) in table {
        let got = verdict(text, form, filed, Some(company)).kind;
        if got != *want {
            wrong.push(format!("want {want:?}, got {got:?}: {text}"));
        }
    }
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

/// Session 23's and 24's misreadings of the served draws, in a 10-K (moved from `statements.rs`).
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
