//! What keeps a matched event pattern (`rules.rs`) from counting: vetoes, patterns that anywhere
//! in the sentence say the event is not of its kind after all, and needs, what an event of a
//! kind must name somewhere in its sentence. Syntax as in `classify.rs`; each entry is pinned by
//! a real sentence (`statements.rs` tests, `tests/served_misreadings.rs`).

use gtms_companies::domain::SignalKind::{self, *};

/// A pattern that, found anywhere in a sentence, says its event is not of `kind` after all:
/// the misreadings a keyword invites (an issuance under an equity plan is no capital raise,
/// repurchased notes are no buyback, "named as a defendant" is no appointment).
pub struct Veto {
    pub kind: SignalKind,
    pub pattern: &'static str,
}

const fn v(kind: SignalKind, pattern: &'static str) -> Veto {
    Veto { kind, pattern }
}

pub const VETOES: &[Veto] = &[
    // Shares issued under equity plans, for services, on an exercise or vesting, to directors,
    // employees or vendors, on a conversion or to settle a debt, or "issued and outstanding"
    // (an adjective), and a refinancing with the same banks, are no capital raise.
    v(CapitalRaise, "incentive|option|equity|compensation|award|stock|purchase plan|plans"),
    v(CapitalRaise, "under .. plan|plans"),
    v(CapitalRaise, "for|as .. services|compensation"),
    // Options, warrants and awards exercised or vested (not the underwriters' option of an
    // offering: "including the full exercise of the underwriters' option to purchase").
    v(CapitalRaise, "exercise|vesting of .. options|warrants|rsus|awards|restricted"),
    v(CapitalRaise, "option|options|warrant|warrants exercise|exercises"),
    v(CapitalRaise, "lease|leases|sublease"),
    v(CapitalRaise, "to|for .. director|directors|employees|officers|officer|consultants|president|ceo|cfo"),
    v(CapitalRaise, "award|awards|options|vested|rsu|rsus"),
    v(CapitalRaise, "option grant|grants"),
    v(CapitalRaise, "vendor|vendors|satisfaction|convert|conversion|converted|settle|settlement|judgment"),
    v(CapitalRaise, "issued and outstanding"),
    v(CapitalRaise, "with .. existing banks|lenders"),
    // Shares paid as a bonus or as the price of something bought, warrants given to lenders or
    // underwriters, and letters under an existing credit agreement are no raise either.
    v(CapitalRaise, "bonus|bonuses|underwriter|noteholders|payoff"),
    v(CapitalRaise, "as|in consideration"),
    v(CapitalRaise, "letter agreement"),
    v(CapitalRaise, "amended the|its|our|such"),
    v(CapitalRaise, "benchmark|libor|sofr"),
    // Shares issued at par to holders (a recapitalisation), warrants paid to the placement agent,
    // an offering's proceeds told as a figure, and loans the company makes are no raise.
    v(CapitalRaise, "at par"),
    v(CapitalRaise, "to the placement agent|agents"),
    v(CapitalRaise, "placement agent's|agents' warrants"),
    v(CapitalRaise, "amounted|borrowers"),
    v(CapitalRaise, "remaining shares"),
    v(CapitalRaise, "modification|amendment agreement"),
    // Shares paid to consultants and finders, agents' warrants, an investee's own offering and a
    // covenant on a property are no raise of the company's.
    v(CapitalRaise, "consultant|consultants|finder|finders|finder's"),
    v(CapitalRaise, "placement agent warrants"),
    v(CapitalRaise, "investee|investees"),
    v(CapitalRaise, "restrictive covenant|covenants"),
    // Several loans told as one, a facility told in a relative clause, shares to an officer.
    v(CapitalRaise, "several|various|multiple loan|loans|agreements|notes|financings"),
    v(CapitalRaise, "which|that was|were entered"),
    // Warrants exercised by investors, shares as an equity kicker or as debt issuance costs, an
    // offering's legal opinion, stockholders selling their own shares, and money "raised" by
    // another company in a relative clause are no raise.
    v(CapitalRaise, "exercising|exercised .. warrants|options"),
    v(CapitalRaise, "kicker|expensed|opinion"),
    v(CapitalRaise, "issuance|transaction costs"),
    v(CapitalRaise, "selling stockholders|shareholders|securityholders agreed"),
    v(CapitalRaise, "that|which has|have raised"),
    // Money the company lends ("a loan agreement with UK Wisdom Limited to provide an
    // interest-free loan", "to lend $280,000") is no raise of its own.
    v(CapitalRaise, "to lend"),
    v(CapitalRaise, "to provide .. loan|loans"),
    // Earnout shares, advisory warrants, a treasury lock's settlement, a note the company
    // receives as lender, and an at-the-market total "through the third quarter" are no raise.
    v(CapitalRaise, "earnout|earn-out|advisory"),
    v(CapitalRaise, "treasury lock|locks"),
    v(CapitalRaise, "received a|the promissory"),
    v(CapitalRaise, "through the first|second|third|fourth quarter"),
    // A director's own loan, a VIE's contractual loans, and money the company advances.
    v(CapitalRaise, "our|its director|directors|officer|chairman .. entered"),
    v(CapitalRaise, "wfoe"),
    v(CapitalRaise, "and advanced"),
    // Warrants given to a holder or to an IPO's underwriters with no money raised, shares paid
    // as an acquisition's price, a credit agreement modified, and "offering" as a participle
    // ("offering students and schools innovative ... solutions") are no raise.
    v(CapitalRaise, "issued _ warrants|share purchase warrants"),
    v(CapitalRaise, "warrants to purchase .. to underwriters|underwriter"),
    v(CapitalRaise, "purchase consideration"),
    v(CapitalRaise, "modification to|of the"),
    v(CapitalRaise, "offering students|schools|customers|clients|users|patients|consumers|members"),
    // Shares to an acquired company's founders, to a 401(k) plan as matching contributions, to
    // warrant holders or a consultant, on a holder's warrant exercised (not the underwriters'
    // over-allotment option), or for debt exchanged, and an at-the-market total "has offered
    // and sold", raise no money.
    v(CapitalRaise, "founder|founders|consulting"),
    v(CapitalRaise, "401 k"),
    v(CapitalRaise, "matching contribution|contributions"),
    v(CapitalRaise, "warrant holder|holders"),
    v(CapitalRaise, "exercised its|their warrant"),
    v(CapitalRaise, "exchange of .. debt|notes|debentures"),
    v(CapitalRaise, "has|have offered and sold"),
    // Shares issued on incorporation under the articles, and notes the company agreed to buy.
    v(CapitalRaise, "articles of association"),
    v(CapitalRaise, "{self} agreed to purchase|buy"),
    v(CapitalRaise, "among other things purchase|buy"),
    // Money the company agrees to lend, an intercompany loan, a note restated to consolidate
    // earlier loans, a prior facility terminated (passive: the new one is the event), a supplier
    // financing drawn under an existing facility, shares paid to board members in lieu of pay
    // (misspelt "in leu" too) and shares issued to buy a stake raise no money.
    v(CapitalRaise, "agreed|agrees to loan"),
    v(CapitalRaise, "intercompany"),
    v(CapitalRaise, "restated and amended"),
    v(CapitalRaise, "was|were terminated"),
    v(CapitalRaise, "supplier financing"),
    v(CapitalRaise, "under this|such|the existing credit facility|agreement"),
    v(CapitalRaise, "board members"),
    v(CapitalRaise, "in lieu|leu of .. compensation|salary|fees|bonus|bonuses"),
    v(CapitalRaise, "issued .. shares .. to acquire"),
    // A share subdivision, a loan's term extended, a holder's note assigned to another, an
    // at-the-market total "had sold" at a programme's end and shares the company held sold
    // (a divestiture) raise no money.
    v(CapitalRaise, "subdivided|subdivision"),
    v(CapitalRaise, "deferred repayment"),
    v(CapitalRaise, "to extend the .. term|maturity"),
    v(CapitalRaise, "transferred and assigned"),
    v(CapitalRaise, "had sold|issued"),
    v(CapitalRaise, "shares we|it held|owned"),
    // Pay for a director, an attorney or an underwriter, not money raised ("$2,500 per meeting
    // paid in cash, common shares", "issued 27,250 shares of common stock to its patent attorney
    // per their fee agreement", "we issued a common stock purchase warrant to Boustead
    // Securities", session 32); a funding obligation to another party ("obligating us to
    // advance funding to the Sky Ranch CAB").
    v(CapitalRaise, "per meeting"),
    v(CapitalRaise, "attorney|attorneys|lawyer|lawyers|fee agreement"),
    v(CapitalRaise, "issued a|an .. warrant to"),
    v(CapitalRaise, "obligating|obligates|obligated us|the"),
    // A consultant's package ("250,000 common shares, and $5,000 paid on a monthly basis ... an
    // option ... vesting immediately"), shares given for an asset bought ("issued 1,000,000 common
    // shares ... in connection with the purchase of Hydrogen Technology"), a digital product
    // ("an NFT offering for artists"), session 32.
    v(CapitalRaise, "monthly basis"),
    v(CapitalRaise, "vesting|vested immediately"),
    v(CapitalRaise, "shares .. in connection with the purchase of"),
    v(CapitalRaise, "nft|nfts"),
    // Notes bought back are debt management; running totals and tax withholding are no programme.
    v(Buyback, "repurchase|repurchased|repurchases|repurchasing .. notes|debentures|bonds|debt"),
    v(Buyback, "have|has|had repurchased"),
    // Minority interests bought out, shares taken back from employees, an aggregate authority.
    v(Buyback, "membership|non-controlling|noncontrolling|employee|employees"),
    v(Buyback, "in the aggregate"),
    // An equity line's purchase agreement: the investor buys the company's shares.
    v(Buyback, "purchase agreement"),
    v(Buyback, "withheld|withholding"),
    // Options granted to buy shares and notes bought back at par are no buyback.
    v(Buyback, "granted|grant|option|options"),
    // Shares taken back to cover employees' taxes on vested awards.
    v(Buyback, "tax|taxes|vested"),
    v(Buyback, "principal amount"),
    // Notes named after their market ("repurchase and retire up to $20 million of the Companys
    // outstanding Israeli Notes"), and what remains authorized, are no buyback.
    v(Buyback, "outstanding .. notes|debentures|bonds"),
    v(Buyback, "remained|remain|remains authorized|available"),
    // A programme's running total ("repurchased 352,697 shares through September 30, 2022,
    // increasing its total treasury shares").
    v(Buyback, "shares through january|february|march|april|may|june|july|august|september|october|november|december"),
    v(Buyback, "treasury shares to"),
    // A share option committee's resolution is governance, not an appointment.
    v(LeadershipChange, "option committee"),
    // Litigation and terms of office are no leadership change.
    v(LeadershipChange, "defendant|defendants|plaintiff|plaintiffs|lawsuit|complaint"),
    v(LeadershipChange, "hold|holds office"),
    v(LeadershipChange, "financial expert|experts"),
    v(LeadershipChange, "managing member"),
    // A career told in one sentence ("joined ... as ..., and was appointed ... in 2011").
    v(LeadershipChange, "and was|later|subsequently appointed|promoted|named|elected"),
    // A scientific or advisory board is no board of directors.
    v(LeadershipChange, "advisory|scientific board|boards"),
    // Awards, rankings and lists a company or its people are "named" to are no appointment.
    v(
        LeadershipChange,
        "list|lists|award|awards|honor|honors|honoree|honorees|ranked|ranking|recognized|recognition|finalist|finalists|winner|winners",
    ),
    v(LeadershipChange, "named .. leader|leaders|best|top|most|greatest|one"),
    // Agents and distributors appointed, a term until a successor, an appointment told in a
    // relative clause: no change of officers.
    v(LeadershipChange, "agent|agents|distributor|distributors"),
    v(LeadershipChange, "until a|his|her|their successor"),
    v(LeadershipChange, "who was|were|has|had been appointed|elected|named"),
    // "Harold Edwards, who resigned as a member of our Board of Directors in February 2022, is
    // the Chief Executive Officer of Limoneira": a departure told in a relative clause.
    v(LeadershipChange, "who resigned|retired"),
    // A compensation table's note ("represents the minimum fiscal 2020 STI payout").
    v(LeadershipChange, "represents|payout|payouts"),
    // Treasury shares retired are no officer retiring.
    v(LeadershipChange, "retire _ shares"),
    v(LeadershipChange, "held in treasury"),
    // The company's own purchases are no customer win.
    v(Customer, "to purchase|buy|procure"),
    v(Customer, "purchase|purchases|buy|buys .. from"),
    // Leases, standstills on the company's own notes, custody of its tokens, and amendments.
    v(Customer, "lease|rent|standstill|promissory|lender|borrower|custodial|amended|consulting|vendor|supplemental"),
    // Employment and advisory contracts, shared offices, letters and licences bought are no
    // customer's order.
    v(Customer, "compensation|salary|employment|advisory|consultant|sharing|premises|copyright|copyrights"),
    v(Customer, "letter agreement"),
    v(Customer, "pledge|loan|loans"),
    // A sponsor's management contract and a land acquisition agreement are no customer's order.
    v(Customer, "sponsor|sponsors"),
    v(Customer, "acquisition agreement"),
    // A government's grant of reimbursements and an investor-relations firm hired.
    v(Customer, "reimbursement|reimbursements|contribution agreement"),
    v(Customer, "investor relations"),
    // Guarantees given, transfers of equity and agreements with shareholders are no customer's order.
    v(Customer, "guarantee|guarantors|co-guarantors|shareholder|shareholders|stockholder|stockholders"),
    v(Customer, "equity|share transfer"),
    v(Customer, "to acquire"),
    // Payments the company makes, a supplier's contract, software built for its own use.
    v(Customer, "monthly payments|payment"),
    v(Customer, "supplier|suppliers"),
    v(Customer, "for internal use"),
    // A business model "under" which partners are introduced is a description.
    v(Partnership, "model|models"),
    v(Partnership, "terminate|terminated|termination"),
    // An award named for a partnership, and a subsidiary that is a limited partnership.
    v(Partnership, "award|awards"),
    v(Partnership, "limited partnership"),
    v(Partnership, "amended|several|various|suppliers"),
    v(Partnership, "third-party manufacturers"),
    // A licence within the group ("an intercompany patent license agreement", session 32).
    v(Partnership, "intercompany|intra-group|intragroup"),
    // A count over a period ("Through the fourth quarter of fiscal 2022, we entered into four
    // joint ventures", session 32).
    v(Partnership, "through the first|second|third|fourth quarter"),
    v(Hiring, "retain"),
    v(Hiring, "experts|consultant|consultants|auditor|auditors"),
    // More of a stake already held, the acquired assets' accounting, a running total, something
    // acquired by someone else, the costs of a deal, a renaming: no acquisition.
    v(Acquisition, "acquired|acquire|purchased .. additional"),
    v(Acquisition, "assets|liabilities acquired"),
    v(Acquisition, "the acquired"),
    v(Acquisition, "had|was|were acquired"),
    v(Acquisition, "allocation|expenses"),
    v(Acquisition, "changed its name"),
    // An acquisition told in a relative clause or as what a closing caused is background.
    v(Acquisition, "which|that|companies|businesses we|it acquired|acquire"),
    v(Acquisition, "connection with the .. closing"),
    v(Acquisition, "assumed"),
    // Tokens bought for a treasury, a group reorganised under a new holding company, permits,
    // leases and beneficial ownership are no acquisition of a business.
    v(Acquisition, "eth|btc|bitcoin|ether|ethereum|token|tokens|trx|bnb|cryptocurrency|cryptocurrencies"),
    v(Acquisition, "reorganization|reorganisation|permits|lease|beneficial|beneficially"),
    v(Acquisition, "holding company of"),
    v(Acquisition, "exchange for .. warrants"),
    v(Acquisition, "companies|businesses we have|has acquired"),
    v(Acquisition, "shareholders|stockholders|holders received"),
    // Several deals told as one, a reincorporation, and notes exchanged are no acquisition.
    v(Acquisition, "multiple|several|various|numerous businesses|acquisitions|companies"),
    v(Acquisition, "reincorporation|redomicile|redomiciliation|redomestication"),
    v(Acquisition, "exchange for .. notes|debentures|payables"),
    v(Acquisition, "management team"),
    // Acquired companies left out of the internal-control assessment, the purchase accounting
    // completed, shares issued for an acquiree's vested awards, a SPAC's redemption waivers and
    // commodities bought by weight are no acquisition of a business.
    v(Acquisition, "conditioned|conditions"),
    v(Acquisition, "change of control"),
    v(Acquisition, "attributable"),
    v(Acquisition, "that|which {self} acquired"),
    v(Acquisition, "sarbanes-oxley"),
    // An exhibit's title ("Agreement and Plan of Merger, dated November 22, 2015, among ...").
    v(Acquisition, "merger dated"),
    v(Acquisition, "warrants|options to acquire|purchase"),
    v(Acquisition, "two|three|four|five|six|seven|eight|nine|ten acquisitions|businesses"),
    v(Acquisition, "internal control|controls"),
    v(Acquisition, "acquisition accounting"),
    v(Acquisition, "restricted stock|awards"),
    v(Acquisition, "waive|redemption rights"),
    v(Acquisition, "kilograms|ounces|tons|tonnes|barrels"),
    // Executives kept "from when we acquired" a business (background), and equipment bought
    // under a procurement agreement.
    v(Acquisition, "from when {self} acquired"),
    v(Acquisition, "procurement agreement|contract"),
    // A VIE taken in-house from its nominee shareholders is a reorganisation.
    v(Acquisition, "nominee shareholders|shareholder"),
    // A buyer acquiring the company's assets is a sale ("the Buyer agreed to acquire from the
    // Company the Helix assets").
    v(Acquisition, "buyer|purchaser agreed to acquire|purchase"),
    // A business started "when the Company acquired" it is history told as background.
    v(Acquisition, "when .. {self} acquired"),
    // An acquisition told in a relative clause of a subsidiary's ("a business that a subsidiary
    // acquired ... in 1990"), a counterparty that "has agreed to purchase" the company's stake
    // (a sale) and bullion bought by the ton (trading stock) are no acquisition.
    v(Acquisition, "that|which a|one|our subsidiary|subsidiaries acquired"),
    v(Acquisition, "whereby .. has|have agreed to purchase|acquire"),
    v(Acquisition, "physical gold|silver"),
    v(Acquisition, "ton"),
    // Goods, a loan or securities bought, no business ("we acquired from NovImmune its inventory
    // of the TLR4 antibody", "the Company acquired a loan from Fulton Bank", "acquired $3.4
    // million in floating rate capital securities", session 32).
    v(Acquisition, "its|their inventory|inventories"),
    v(Acquisition, "acquired a|the loan|note|mortgage"),
    v(Acquisition, "capital securities"),
    // A copyright or a drug substance bought, no business ("acquired a movie copyright",
    // "acquired drug substance of one of the Constructs"); a note's maturity extended ("agreed to
    // extend the maturity date until ... the closing of the Companys business combination"),
    // session 32.
    v(Acquisition, "copyright|copyrights"),
    v(Acquisition, "drug substance"),
    v(Acquisition, "extend|extended|extends the maturity"),
    // Restructuring costs are accounting; exiting an agreement or a line sold is no restructuring.
    v(Restructuring, "incurred|costs|charges|expense|expenses"),
    // A table's note ("(1) Represents activity related to ..."), what a period's charges
    // included, and offices closed for a while are no restructuring announced.
    v(Restructuring, "represents|represent|included|temporarily"),
    v(Restructuring, "primarily related|relates"),
    v(Restructuring, "exited the fiscal|year|quarter"),
    v(Restructuring, "exited fiscal"),
    v(Restructuring, "tsa|tsas"),
    // A pension plan or an officer's trading plan terminated is no restructuring.
    v(Restructuring, "pension|10b5-1"),
    v(Restructuring, "trading plan|plans"),
    v(Restructuring, "transition services"),
    v(Restructuring, "agreement|agreements"),
    v(Restructuring, "sale of"),
    // A clinical programme discontinued is a trial's news, equity plans and option grants ended
    // are compensation.
    v(Restructuring, "clinical|development program|programs|programme"),
    v(Restructuring, "incentive|grants"),
    // A business discontinued by transferring it is a sale.
    v(Restructuring, "by transferring|selling"),
    // A financing arrangement ended ("discontinued its receivable factoring program", session 32).
    v(Restructuring, "factoring|securitization"),
    // A dividend reinvestment plan ended is no restructuring ("terminated our dividend
    // reinvestment plan", session 32).
    v(Restructuring, "dividend reinvestment"),
    // A strategy, an initiative or a statement launched is no product.
    v(Product, "plan|initiative|initiatives|program|programs|statements|group|groups|activities|campaign|campaigns"),
    v(Product, "we|company operate|operates"),
    v(Product, "being released"),
    v(Product, "feasibility|strategy|commitment"),
    v(Product, "token|tokens|treasury"),
    // The company itself launched, and revenue from a launch, are no product news.
    v(Product, "launched our|the company"),
    v(Product, "generated|generates revenue|revenues"),
    // A report published, a launch despite which something else happened, a product told in a
    // relative clause.
    v(Product, "report|reports|despite"),
    v(Product, "that|which we|it introduced|launched|released|developed"),
    // A guideline or policy introduced, a press release released, and a trial's rising costs
    // are no product news.
    v(Product, "guideline|guidelines|policy|policies"),
    v(Product, "press release"),
    v(Product, "expenses|costs|reserve|reserves"),
    // Another party's trial or release (a partner, a county), plans "previously expected", talks.
    v(Product, "previously|discussions|county|agency|commission|regulator|regulators"),
    // A chairman's message released, and revenue explained by a launch.
    v(Product, "message|letter"),
    v(Product, "due to"),
    // Money "released from escrow" is no product released.
    v(Product, "released from"),
    // Value released from preferred stock, training for the company's own managers, and a
    // filing completed under a regulator's "Trial Measures" are no product either.
    v(Product, "released _ million|billion"),
    v(Product, "leadership training"),
    v(Product, "trial measures"),
    // An app listed in the app stores (judged no launch, as for expansion below).
    v(Product, "app store|stores"),
    // Results awaited, a staff survey, a competitor's launch, a history "starting in 2014 with
    // the launch of" a platform.
    v(Product, "awaiting|survey|surveys"),
    // A step still awaited ("Lexaria is waiting on one of its third party material suppliers",
    // session 32).
    v(Product, "waiting"),
    v(Product, "competitor|competitors|undifferentiated"),
    v(Product, "starting|beginning .. with the launch"),
    // A business or collaboration model introduced is a description; a network's staking
    // feature is no product of the company's.
    v(Product, "introduced|upgraded|adopted .. business|collaboration|operating model|models"),
    v(Product, "staked|staking|ethereum"),
    // A security charge released and a response launched are no product news.
    v(Product, "security charged|charge"),
    v(Product, "launched a .. response"),
    // What is expected, not done ("anticipates safety and efficacy data to be released during
    // 2022 and 2023"), and a count of launches ("we introduced over 1,600 new products",
    // session 32).
    v(Product, "to be released|launched|introduced"),
    v(Product, "over|approximately|nearly|about _ new products"),
    v(Product, "more than _ new products"),
    // A subsidiary's dividend to its own holders (a minority's share) is no dividend of the
    // company's.
    v(Dividend, "one of .. subsidiaries"),
    v(Dividend, "non-controlling|noncontrolling"),
    // Dividends of a whole year told as one ("declared dividends of $0.76 per share" during it).
    v(Dividend, "approved|declared and paid"),
    v(Dividend, "year|quarter ended"),
    v(Dividend, "in|during fiscal"),
    v(Dividend, "each of the"),
    // A standing dividend rate; an opinion's assumptions; a former business.
    v(Dividend, "dividend rate"),
    v(Dividend, "declared and paid"),
    v(Dividend, "has|have declared"),
    v(Dividend, "accumulated"),
    v(Dividend, "paid the declared"),
    // A subsidiary's dividend to its parent ("which was considered as intragroup transaction",
    // session 32).
    v(Dividend, "intragroup|intra-group|intercompany"),
    // A rights plan's "dividend of one preferred share purchase right" is no cash dividend.
    v(Dividend, "purchase right|rights"),
    v(Dividend, "rights agreement|plan"),
    // Authority remaining under a programme is a figure, not an event.
    v(Buyback, "were|was|are|is authorized .. to repurchase"),
    // A rating agency's action is no guidance of the company's.
    v(Outlook, "moody's|fitch|rating|ratings"),
    // Accounting guidance is no company guidance.
    v(Outlook, "impact|evaluating|adoption|accounting"),
    // A dividend policy's conditions called guidance.
    v(Outlook, "vwap|intention"),
    // Securities sold are treasury management; awards discontinued are compensation.
    v(Divestiture, "investments|securities"),
    v(Divestiture, "reorganization|reorganisation|incentive"),
    v(Restructuring, "granting|awards"),
    v(Restructuring, "discontinued operations|operation"),
    // Portfolio exits, hedges discontinued and costs a report "includes" are no restructuring.
    v(Restructuring, "payoffs|hedge|includes|include"),
    v(Restructuring, "existing restructuring"),
    v(Restructuring, "disposing|disposal|disposed|sold"),
    // Shares cancelled ("cancelled 6,500,000 shares issued under the Plan") are no plan called off.
    v(Restructuring, "cancelled|canceled _ shares"),
    // VIEs no longer consolidated ("for which we had been deemed to be the primary beneficiary").
    v(Restructuring, "primary beneficiary"),
    // Loans sold in the ordinary course, and a sale told in a relative clause (background).
    v(Divestiture, "loans|receivables|mortgages"),
    v(Divestiture, "that|which we|it divested|sold"),
    v(Divestiture, "that|which the company divested|sold"),
    v(Divestiture, "option to purchase"),
    // Machinery sold and leased back is a financing, not a sale of the business.
    v(Divestiture, "leaseback|lease-back"),
    v(Divestiture, "lease back"),
    v(Divestiture, "opinion|assumed|former"),
    // A former parent's distribution of the company's own shares "to its stockholders" is the
    // parent's spin-off, told as the company's history.
    v(Divestiture, "to its stockholders|shareholders"),
    // "sales from the Breeders Choice business we sold in December 2020": background to a figure.
    v(Divestiture, "business|businesses|operations we|it sold|divested in"),
    // Goods sold to customers are sales, not a divestiture.
    v(Divestiture, "customer|customers"),
    // A holder selling the company's shares it owns ("the 12,000,000 shares of Common Stock of
    // the Company owned by Seller") is no sale of the company's.
    v(Divestiture, "{self} owned by"),
    // A bank's foreclosed property ("real estate owned") and goods sold are no business sold.
    v(Divestiture, "real estate owned"),
    v(Divestiture, "goods|merchandise"),
    // Plants built for customers' contracts; payments under an old settlement; a subsidiary
    // approved by a court: description and background.
    v(Expansion, "for which"),
    // A lease renewed for the same space, or a treasury "expanded", is no expansion.
    v(Expansion, "same|renewal|renewed|renew|extension"),
    v(Expansion, "treasury|token|tokens|account|accounts|bitcoin|bitcoin-centric"),
    v(Expansion, "resource|employee|employees"),
    // An app listed in the app stores and a data-center product are no premises opened.
    v(Expansion, "app store|stores"),
    // A product launched "in all stores".
    v(Expansion, "in all .. stores"),
    v(Expansion, "launched .. data center|centers"),
    v(Expansion, "costs|expenses|pre-opening"),
    // A year's deposits and spending (a cash-flow summary) are no premises opened.
    v(Expansion, "deposits|spending"),
    // Guarantee liabilities settled with a lender and an error corrected in an earlier report are
    // no regulator's decision.
    v(Regulatory, "liabilities|guarantee|inadvertently|amounts|payables|receivables"),
    // A note settled in shares, a foundation's court approval.
    v(Regulatory, "note|notes|foundation"),
    v(Regulatory, "at a loss"),
    // A settlement as the cause of what the sentence tells ("As a result of the settlement
    // reached with POSCO Energy, the Company evaluated", session 32).
    v(Regulatory, "as a result of the settlement"),
    // Money settled under an agreement, no legal settlement ("additional agreements regarding the
    // settlement of then outstanding amount of US$81.6 million of the purchase price", session 32).
    v(Regulatory, "settlement of .. outstanding|amount|amounts|balance"),
    v(Regulatory, "payments"),
    // A release commenting on a regulator's decision about someone else's product.
    v(Regulatory, "commented|comments on"),
    v(Regulatory, "psus|rsus|comments|commercializing"),
    v(Regulatory, "shareholder|stockholder|shareholders|stockholders|shareholders'|stockholders'"),
    v(Regulatory, "anti-dilution|down round"),
    v(Regulatory, "intercompany|swap|swaps|receivable"),
    v(Regulatory, "became .. subsidiary"),
    // A business licence issued to a new subsidiary is its formation; a payment made under an
    // earlier settlement is background.
    v(Regulatory, "business license|licence"),
    v(Regulatory, "pursuant to the|a settlement .. paid"),
    // Restricted cash set aside for an old decision and a consent decree the company operates
    // under are no regulator's decision.
    v(Regulatory, "restricted cash"),
    v(Regulatory, "operating|operate|operates under"),
    // Equity awards settled in cash or shares are compensation.
    v(Regulatory, "awards|tsrus|stock-based"),
    // Session 30, read off `heldaside_served14`: warrants "to purchase" shares and the authority
    // a program gives are no shares bought back; a commodity's volumes sold are sales, not a
    // business sold; an investor day is no product; an equity plan terminated is no
    // restructuring; loans a lender "originated" and a stake sold out of are no raise; a
    // subsidiary's minority or non-controlling interests bought out are no acquisition; a
    // spin-off's transition services, an insurer's settlement and an investor-awareness
    // consultancy hired are no customer; a separation and distribution agreement is the
    // spin-off itself, no partnership.
    v(Buyback, "warrants to purchase"),
    v(Buyback, "is|are authorized to purchase|repurchase"),
    v(Divestiture, "dekatherms|kilowatt|megawatt|barrels|bushels"),
    v(Product, "investor day"),
    v(Restructuring, "terminated the|its|our plan"),
    v(Restructuring, "terminated the|its|our _ plan"),
    v(CapitalRaise, "loans originated"),
    v(CapitalRaise, "sold our|its remaining"),
    v(Acquisition, "non-controlling|noncontrolling interest|interests"),
    v(Acquisition, "remaining .. minority"),
    v(Customer, "transition services agreement"),
    v(Customer, "insurer|insurers"),
    v(Customer, "investor awareness"),
    // A warrant agreement extended, obligations bought back at a discount, a motion filed to
    // enforce a settlement, an expired programme's total, and an offering by selling
    // shareholders are none of the company's events of those kinds.
    v(Customer, "warrant agreement"),
    v(Acquisition, "obligations"),
    v(Regulatory, "motion"),
    v(Buyback, "program|programme expired"),
    v(CapitalRaise, "by certain selling"),
    v(Partnership, "separation and distribution"),
];

/// What an event of `kind` must name somewhere in its sentence: a role for a leadership change
/// (no "named in several cases", no "promoted through our website"), money or a financing for a
/// capital raise (no bare "issued 1,000,000 ordinary shares"), a business or an asset for a
/// sale (no "sold a myriad of food products", no "sold 12.1 million CAD").
pub struct Need {
    pub kind: SignalKind,
    pub pattern: &'static str,
}

pub const NEEDS: &[Need] = &[
    Need {
        kind: LeadershipChange,
        pattern: "chief|president|director|directors|officer|officers|chairman|chair|chairwoman|chairperson|ceo|cfo|coo|cto|cio|treasurer|secretary|board|counsel|vice|head|controller|executive|executives|evp|svp|dean|partner",
    },
    Need {
        kind: CapitalRaise,
        pattern: "proceeds|offering|offerings|placement|credit|loan|loans|facility|facilities|notes|note|debentures|debenture|bonds|bond|financing|indenture|underwritten|underwriters|investors|investor|gross|million|billion|price|per|subscription|raise|raised|raising|raises|convertible|term|funding",
    },
    Need {
        kind: Divestiture,
        pattern: "business|businesses|segment|subsidiary|subsidiaries|division|unit|operations|operation|assets|asset|interest|interests|stake|shares|property|properties|facility|plant|brand|brands|portfolio|spin-off|spinoff|separation|sale|line",
    },
];
