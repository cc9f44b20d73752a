//! The event patterns of the signal classifier (syntax in `classify.rs`), grouped by kind.
//! Every pattern names an act — done, announced or scheduled — never a topic alone. Where
//! two patterns start at the same word the one listed first wins, so capital raises
//! ("we sold 2,000,000 shares") come before divestitures ("we sold the plant"). Risk is
//! no event and has no pattern; outlook only as guidance issued or changed.

use gtms_companies::domain::SignalKind::{self, *};

/// One event pattern. `needs_date`: counts only when the sentence states a date.
pub struct Rule {
    pub kind: SignalKind,
    pub pattern: &'static str,
    pub needs_date: bool,
}

const fn r(kind: SignalKind, pattern: &'static str) -> Rule {
    Rule { kind, pattern, needs_date: false }
}

const fn dated(kind: SignalKind, pattern: &'static str) -> Rule {
    Rule { kind, pattern, needs_date: true }
}

pub const RULES: &[Rule] = &[
    // A release states its event as a noun after "announced" ("Alight today announced the
    // appointment of Donna Dorsey as Chief Human Resources Officer") or in a headline's present
    // tense ("Northern Trust Appoints ..."); these come first, as the announcing verb starts
    // the event.
    r(LeadershipChange, "announced|announces|announce .. appointment|appointments|election|promotion|hiring of"),
    r(LeadershipChange, "approved|approves .. appointment|appointments of"),
    r(CapitalRaise, "announced|announces|announce .. pricing|closing|completion of .. offering|placement|notes"),
    r(CapitalRaise, "announced|announces|announce .. underwritten|public|registered|direct|proposed offering"),
    r(CapitalRaise, "announced|announces|announce .. funding|financing agreement|round|facility"),
    r(Acquisition, "announced|announces|announce .. completion|closing of .. acquisition|merger|investment"),
    r(Acquisition, "entered into .. business combination"),
    r(Divestiture, "announced|announces|announce .. completion of .. spin-off|separation|sale"),
    r(Divestiture, "pursue|pursuing .. spin-off|separation"),
    r(Divestiture, "completion of .. spin-off|separation"),
    // What a release says is launched or expanded decides its kind: a partnership ("announced
    // the launch of a two-year partnership"), a trial ("the expansion of the multi-center CLUE
    // Trial"), a new subsidiary ("a transformative expansion with the launch of QuantumNexis, a
    // new subsidiary"), a client relationship ("an expansion of its relationship with Brandes").
    r(Partnership, "announced|announces|announce .. launch|expansion of .. partnership|collaboration|alliance"),
    r(Product, "announced|announces|announce .. expansion of .. trial|trials|study|studies"),
    r(Expansion, "announced|announces|announce .. launch of .. subsidiary|division|business"),
    r(Customer, "announced|announces|announce .. expansion of its|our|their relationship"),
    r(Customer, "announced|announces|announce .. customer win|wins"),
    // A filing with China's securities regulator completed, before trials "completed".
    r(Regulatory, "completed .. csrc filing|filings"),
    // A voluntary separation programme is a workforce reduction, not a separation of a business.
    r(Restructuring, "announced|announces|announce .. voluntary separation|retirement"),
    r(Expansion, "announced|announces|announce .. opening|formation of"),
    r(Expansion, "announced|announces|announce .. expansion of|into|expand"),
    // "today unveiled the global expansion of its VerifyU platform", before products' "today unveiled".
    r(Expansion, "today unveiled|unveils .. expansion of|into"),
    r(
        Expansion,
        "signed|entered into .. lease|purchase agreement|agreements for .. facility|building|headquarters|warehouse|plant",
    ),
    // A property bought under any agreement ("entered into a cooperation agreement with Beijing
    // Electronics Zone Co., Ltd. for the purchase of a real property").
    r(Expansion, "entered into .. agreement .. purchase of .. property|building|premises|land|office"),
    // A contract to build or invest in the company's own site ("signed an investment contract
    // with Haikou State High Technology Industry Development Zone to build the EV production
    // facility"), before customers' "signed .. contract".
    r(Expansion, "signed|entered .. construction contract|contracts|agreement"),
    r(Expansion, "signed|entered .. investment contract|contracts"),
    // An investment agreement for the company's own project or to form a joint venture.
    r(Expansion, "entered into .. project investment agreement"),
    r(Partnership, "entered into .. agreement .. to form|establish .. joint venture"),
    // A stake bought under an investment agreement is an acquisition.
    r(Acquisition, "signed|entered .. investment agreement"),
    r(Product, "announced|announces|announce .. launch|introduction|availability of"),
    r(Product, "today unveiled|unveils|launched|launches|introduced|introduces|debuted|debuts"),
    r(Customer, "announced|announces|announce .. new contract|contracts|orders"),
    r(Customer, "secured|secures|won|wins .. contract|contracts|order|orders"),
    r(Customer, "concluded|finalized .. contract|contracts"),
    r(
        Partnership,
        "enters|entered|signs|signed|forms|sign .. partnership|collaboration|alliance|mou|memorandum|cooperation",
    ),
    // Present tense is a headline's only when the release dates it ("today"); undated, it
    // describes ("Coursera partners with over 350 leading university and industry partners").
    dated(Partnership, "collaborates|partners|teams|teamed with"),
    r(Partnership, "announced|announces|announce .. joint venture"),
    // Warrants or shares given to holders as a dividend ("we issued 3.9 million of warrant
    // dividends"), before the raise's "issued".
    r(Dividend, "issued .. warrant|stock|share|special dividend|dividends"),
    // Shares issued as the price of a merger or an acquisition, before capital raises.
    r(Acquisition, "issued .. shares .. to acquire"),
    r(Acquisition, "completion|closing of .. business combination"),
    r(Acquisition, "issued .. shares .. connection|relation with|to .. merger|acquisition"),
    r(Acquisition, "connection|relation with|to .. merger|acquisition .. issued"),
    r(Acquisition, "in exchange for .. outstanding"),
    r(Acquisition, "issued .. exchange for .. outstanding"),
    // An agency's order, before "issued" of a capital raise.
    r(Regulatory, "sec|ftc|fda|doj|epa|commission|agency .. issued|entered .. order|orders"),
    // Shares sold: the company's own are a raise, another company's held as an investment a
    // sale ("sold 1.7 million shares of Energizer common stock", "sold our entire investment
    // of 1,677,299 shares of Limoneira"); both before the plain "{self} sold .. shares".
    r(CapitalRaise, "sold .. shares of our|its common|ordinary|class|capital|preferred"),
    r(Divestiture, "sold .. shares of .. ownership|stake|interest in"),
    r(Divestiture, "sold .. shares of _ common"),
    r(Divestiture, "sold .. shares of _ for"),
    r(Divestiture, "sold .. its|our shares|stake|interest in"),
    r(Divestiture, "sold .. entire|remaining investment|stake|interest|holding|holdings"),
    // Capital raises.
    r(CapitalRaise, "{self} .. issued .. notes|shares|debentures|bonds|stock|warrants|units|securities"),
    r(CapitalRaise, "issued and sold"),
    r(CapitalRaise, "sold and issued"),
    r(CapitalRaise, "completed|closed .. issuance and sale"),
    r(CapitalRaise, "completed|closed .. sale of .. ordinary|common shares|stock"),
    r(CapitalRaise, "completed|closed .. ipo|ipos"),
    r(CapitalRaise, "entered into .. share|stock|securities|subscription purchase agreement .. investor|investors"),
    r(CapitalRaise, "entered into .. share|stock|securities|subscription purchase agreement with the company"),
    // The company's own shares sold to investors ("entered into an agreement with certain
    // non-U.S. investors to sell an aggregate of 15,000,000 shares", "agreed to sell to certain
    // other investors an aggregate of 100,000 common shares"), before divestitures' "to sell".
    r(CapitalRaise, "entered into .. agreement .. investors|investor to sell"),
    r(CapitalRaise, "agreed to sell to .. investors|investor"),
    // An agreement for an investor to buy the company's own ordinary shares (an equity line with
    // White Lion Capital), before acquisitions' "share purchase agreement".
    r(CapitalRaise, "entered into .. ordinary|common share|stock purchase agreement"),
    r(CapitalRaise, "launched .. offering|offerings"),
    r(CapitalRaise, "agreed to issue"),
    r(CapitalRaise, "{self} sold .. shares|notes|debentures|units|warrants|adss"),
    r(CapitalRaise, "agreed to sell .. units|shares|notes|adss|warrants"),
    r(CapitalRaise, "signed .. loan|credit|facility|financing"),
    r(CapitalRaise, "completed|completes|closed|closes|priced|prices .. offering|placement"),
    r(
        CapitalRaise,
        "entered into .. credit|loan|indenture|revolving|promissory|financing agreement|facility|note|notes",
    ),
    r(CapitalRaise, "entered into .. indenture"),
    r(CapitalRaise, "entered into .. securities|equity|at-the-market purchase|distribution|sales agreement"),
    r(CapitalRaise, "closed|closes .. line-of-credit|credit|loan|revolving|term facility|loan|line|note|agreement"),
    r(CapitalRaise, "raised|raises .. million|billion"),
    r(CapitalRaise, "secured|secures .. funding|financing"),
    r(CapitalRaise, "entered|obtained .. loan|credit|revolving|facility|facilities"),
    // Buying back its own shares, before acquisitions ("the Company acquired 663,380 shares of
    // its common stock").
    r(Buyback, "{self} .. acquire|acquired|purchase|purchased .. shares of its|our"),
    // Space and property taken on, before acquisitions ("acquired additional premises").
    r(Expansion, "acquired|leased .. additional .. premises|space|square|acres"),
    r(Expansion, "acquired|purchased .. land|building|buildings"),
    r(Acquisition, "purchased|acquired .. all .. outstanding"),
    r(Expansion, "acquired|purchased .. production line|lines"),
    r(Acquisition, "entered into .. share purchase agreement"),
    r(Partnership, "under|through|via the joint venture .. {self} acquired|invested|formed"),
    // Acquisitions ("we expanded our operations in Europe in 2020 with the addition of Lixoft").
    r(Acquisition, "expanded .. with the addition|acquisition of"),
    r(Acquisition, "completed|completes|closed|closes|announced|consummated .. acquisition|acquisitions|merger"),
    r(Acquisition, "completed|completes|closed|closes .. investment in"),
    r(Acquisition, "{self} .. acquired"),
    r(Acquisition, "closing of .. acquisition|merger"),
    r(Acquisition, "agreed|agreement to acquire|merge"),
    dated(Acquisition, "{self} .. acquires"),
    r(Acquisition, "entered into .. agreement .. to acquire"),
    r(Acquisition, "entered into .. merger agreement"),
    r(Acquisition, "agreement and plan of merger"),
    r(Acquisition, "will acquire"),
    r(Acquisition, "acquisition of .. was completed"),
    // Divestitures.
    r(Divestiture, "completed|completes|closed|closes|announced .. sale|spin-off|separation|divestiture|disposition"),
    r(Divestiture, "{self} sold|divested"),
    r(Divestiture, "{self} .. agreed to sell"),
    r(Divestiture, "entered into .. agreement .. to sell"),
    r(Divestiture, "signed .. agreement .. to sell"),
    r(Divestiture, "spun off"),
    r(Divestiture, "through .. spin-off|spinoff"),
    // Partnerships.
    r(Partnership, "entered into .. partnership|collaboration|alliance|co-development|joint"),
    r(Partnership, "entered into .. license|licensing agreement"),
    r(Partnership, "partnered with"),
    r(Partnership, "formed .. joint venture|partnership|alliance"),
    r(Partnership, "began|started .. partnership|collaboration"),
    // Another party distributing the company's products is a partnership, not a customer.
    r(Partnership, "entered into .. distribution agreement"),
    r(Partnership, "announced .. partnership|collaboration|alliance"),
    // A service or supply the other party provides to the company is a supplier's contract
    // ("entered into a Master Mining Services Agreement with Blockbreakers, pursuant to which
    // Blockbreakers agreed to provide the Company with"), and a licence signed is a partnership,
    // both before customers' "signed .. agreement with".
    r(Partnership, "entered into .. agreement .. to provide|supply the {self}"),
    r(Partnership, "entered into .. agreement .. to provide|supply us"),
    r(Partnership, "signed .. license|licensing|licence agreement"),
    // Customers.
    r(Customer, "{self} .. awarded|won .. contract|contracts|order|orders"),
    r(Customer, "{self} .. selected by"),
    r(Customer, "signed .. contract|contracts|agreement with"),
    r(Customer, "entered into .. supply|services|master agreement"),
    // Leadership.
    r(LeadershipChange, "was|were|been|has|have|had|board|{self} appointed"),
    r(
        LeadershipChange,
        "appointed|appoints|named|names|elected|elects .. as .. chief|president|director|officer|chairman|chair|treasurer|secretary|ceo|cfo",
    ),
    r(LeadershipChange, "appointed|elected .. to .. board"),
    r(LeadershipChange, "was|were|been elected"),
    r(LeadershipChange, "was|were|been named"),
    r(LeadershipChange, "joined|joins|join .. as"),
    r(LeadershipChange, "will become .. chief|president|officer|ceo|cfo|chairman|chair"),
    r(LeadershipChange, "will|to retire|resign"),
    r(LeadershipChange, "retired|resigned as|from"),
    r(LeadershipChange, "stepped down"),
    r(LeadershipChange, "will step down"),
    r(LeadershipChange, "will succeed"),
    r(LeadershipChange, "succeeded|promoted"),
    r(LeadershipChange, "will serve as"),
    r(LeadershipChange, "announced .. retirement|departure|resignation"),
    // Restructuring.
    r(Restructuring, "announced|announces|implementing|implemented|initiated|approved|began .. restructuring"),
    r(Restructuring, "restructuring plan|program|initiative"),
    r(Restructuring, "incurred .. restructuring"),
    r(Restructuring, "reduction in force"),
    r(Restructuring, "workforce reduction|reductions"),
    r(Restructuring, "reduced|reduce .. workforce|headcount"),
    r(Restructuring, "reduction of|in .. workforce|headcount|employees"),
    r(Restructuring, "wind|winding down"),
    r(Restructuring, "{self} .. discontinued|exited"),
    // A plan or project called off, and operations ceased.
    r(Restructuring, "cancelled|canceled|terminated|abandoned .. plan|plans|project|projects|construction"),
    r(Restructuring, "ceased operation|operations"),
    // Buybacks (before "closed" facilities and dividends: "the Board authorized").
    r(Buyback, "authorized|authorizes|approved|approves|announced|announces .. repurchase|repurchases|buyback"),
    r(Buyback, "{self} .. repurchased"),
    r(Buyback, "accelerated share repurchase"),
    r(Buyback, "increase|increased .. program|repurchase authorization"),
    // Dividends.
    r(Dividend, "declared|declares .. dividend|dividends"),
    r(Dividend, "increased|raised|initiated|reinstated|approved|instituted .. dividend|dividends"),
    r(Dividend, "eliminate|eliminated|suspend|suspended|reduce|reduced|reducing|cut .. dividend|dividends"),
    // Expansion.
    r(Expansion, "{self} .. opened"),
    r(
        Expansion,
        "added|adding .. new .. store|stores|location|locations|restaurants|units|centers|clinics|branches|facilities|markets",
    ),
    r(Expansion, "{self} .. expanded .. into"),
    r(
        Expansion,
        "{self} .. expanded .. capacity|footprint|presence|operations|network|facility|plant|distribution|office|offices|space|headquarters|warehouse",
    ),
    r(Expansion, "broke ground"),
    r(Expansion, "began|commenced|started|completed construction"),
    r(Expansion, "entered the .. market|markets"),
    r(Expansion, "entered into the .. field|market|markets|industry"),
    r(Expansion, "plan|plans|planned to open|build"),
    r(Expansion, "will open"),
    r(Expansion, "construct .. mill|plant|facility|factory|headquarters|campus|store|stores"),
    // Restructuring closures after expansion's "opened" (same start word wins by order).
    r(
        Restructuring,
        "{self} .. closed .. facility|facilities|plant|plants|store|stores|office|offices|operations|locations|centers|sites|restaurants|branches",
    ),
    // A project launched "in partnership with" another party.
    r(Partnership, "launched .. in partnership with"),
    // A new line of business, before products ("launched our single-family rental division").
    r(
        Expansion,
        "launched .. division|business|segment|warehouse|factory|plant|facility|store|stores|center|centre|subsidiary|field|project|space|brokerage|branch|office|chain|restaurant|restaurants",
    ),
    // Products.
    r(Product, "{self} .. launched|introduced|unveiled|released"),
    r(Product, "began shipping|selling"),
    r(Product, "commercial launch|availability"),
    r(Product, "began|initiated|completed .. enrollment|trial|study"),
    r(Product, "reported|announced .. positive|topline|top-line .. results|data"),
    r(Product, "dosed .. first"),
    dated(Product, "introduction|launch|launches of"),
    // Regulatory.
    r(
        Regulatory,
        "received|receives|obtained|obtains|secured|secures|granted .. approval|clearance|authorization|designation",
    ),
    r(
        Regulatory,
        "received|obtained|granted .. operation|operating|business|telecommunications license|licence|permit",
    ),
    r(Regulatory, "fda|ema|fcc|cpuc|ferc|commission|agency|regulators .. approved|cleared|granted"),
    r(Regulatory, "non-prosecution|deferred-prosecution agreement"),
    r(Regulatory, "consent decree|order"),
    r(Regulatory, "settlement agreement"),
    r(Regulatory, "settled .. with"),
    // Outlook: guidance issued or changed.
    r(
        Outlook,
        "raised|raises|lowered|lowers|reaffirmed|reaffirms|issued|issues|updated|updates|increased|reduced .. guidance|outlook",
    ),
    // An officer to be hired is a leadership change, not a hiring plan (same start word).
    r(LeadershipChange, "plan|plans|expect|expects to hire .. chief|officer|president|ceo|cfo|coo"),
    // Hiring plans and hires (headcount figures are statistics, not events).
    r(Hiring, "plan|plans|expect|expects to hire"),
    r(Hiring, "will hire"),
    r(Hiring, "create|add|adding .. jobs"),
];

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
    // Notes bought back are debt management; running totals and tax withholding are no programme.
    v(Buyback, "repurchase|repurchased|repurchases|repurchasing .. notes|debentures|bonds|debt"),
    v(Buyback, "have|has|had repurchased"),
    // Minority interests bought out, shares taken back from employees, an aggregate authority.
    v(Buyback, "interests|membership|non-controlling|noncontrolling|employee|employees"),
    v(Buyback, "in the aggregate"),
    v(Buyback, "withheld|withholding"),
    // Options granted to buy shares and notes bought back at par are no buyback.
    v(Buyback, "granted|grant|option|options"),
    // Shares taken back to cover employees' taxes on vested awards.
    v(Buyback, "tax|taxes|vested"),
    v(Buyback, "principal amount"),
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
    v(Customer, "to acquire"),
    // A business model "under" which partners are introduced is a description.
    v(Partnership, "model|models"),
    v(Partnership, "terminate|terminated|termination"),
    v(Partnership, "amended|several|various|suppliers"),
    v(Partnership, "third-party manufacturers"),
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
    v(Acquisition, "warrants|options to acquire|purchase"),
    v(Acquisition, "two|three|four|five|six|seven|eight|nine|ten acquisitions|businesses"),
    v(Acquisition, "internal control|controls"),
    v(Acquisition, "acquisition accounting"),
    v(Acquisition, "restricted stock|awards"),
    v(Acquisition, "waive|redemption rights"),
    v(Acquisition, "kilograms|ounces|tons|tonnes|barrels"),
    // Restructuring costs are accounting; exiting an agreement or a line sold is no restructuring.
    v(Restructuring, "incurred|costs|charges|expense|expenses"),
    // A table's note ("(1) Represents activity related to ..."), what a period's charges
    // included, and offices closed for a while are no restructuring announced.
    v(Restructuring, "represents|represent|included|temporarily"),
    v(Restructuring, "primarily related|relates"),
    v(Restructuring, "exited the fiscal|year|quarter"),
    v(Restructuring, "exited fiscal"),
    v(Restructuring, "tsa|tsas"),
    v(Restructuring, "transition services"),
    v(Restructuring, "agreement|agreements"),
    v(Restructuring, "sale of"),
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
    // Money "released from escrow" is no product released.
    v(Product, "released from"),
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
    // Authority remaining under a programme is a figure, not an event.
    v(Buyback, "were|was|are|is authorized .. to repurchase"),
    // Accounting guidance is no company guidance.
    v(Outlook, "impact|evaluating|adoption|accounting"),
    // Securities sold are treasury management; awards discontinued are compensation.
    v(Divestiture, "investments|securities"),
    v(Divestiture, "reorganization|reorganisation|incentive"),
    v(Restructuring, "granting|awards"),
    v(Restructuring, "discontinued operations|operation"),
    // Portfolio exits, hedges discontinued and costs a report "includes" are no restructuring.
    v(Restructuring, "payoffs|hedge|includes|include"),
    v(Restructuring, "existing restructuring"),
    v(Restructuring, "disposing|disposal|disposed|sold"),
    // Loans sold in the ordinary course, and a sale told in a relative clause (background).
    v(Divestiture, "loans|receivables|mortgages"),
    v(Divestiture, "that|which we|it divested|sold"),
    v(Divestiture, "that|which the company divested|sold"),
    v(Divestiture, "option to purchase"),
    v(Divestiture, "opinion|assumed|former"),
    // Goods sold to customers are sales, not a divestiture.
    v(Divestiture, "customer|customers"),
    // Plants built for customers' contracts; payments under an old settlement; a subsidiary
    // approved by a court: description and background.
    v(Expansion, "for which"),
    // A lease renewed for the same space, or a treasury "expanded", is no expansion.
    v(Expansion, "same|renewal|renewed|renew|extension"),
    v(Expansion, "treasury|token|tokens|account|accounts|bitcoin|bitcoin-centric"),
    v(Expansion, "resource|employee|employees"),
    // An app listed in the app stores and a data-center product are no premises opened.
    v(Expansion, "app store|stores"),
    v(Expansion, "launched .. data center|centers"),
    v(Expansion, "costs|expenses|pre-opening"),
    // Guarantee liabilities settled with a lender and an error corrected in an earlier report are
    // no regulator's decision.
    v(Regulatory, "liabilities|guarantee|inadvertently|amounts|payables|receivables"),
    v(Regulatory, "payments"),
    // A release commenting on a regulator's decision about someone else's product.
    v(Regulatory, "commented|comments on"),
    v(Regulatory, "psus|rsus|comments|commercializing"),
    v(Regulatory, "shareholder|stockholder|shareholders|stockholders|shareholders'|stockholders'"),
    v(Regulatory, "anti-dilution|down round"),
    v(Regulatory, "intercompany|swap|swaps|receivable"),
    v(Regulatory, "became .. subsidiary"),
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
        pattern: "proceeds|offering|offerings|placement|credit|loan|loans|facility|facilities|notes|note|debentures|debenture|bonds|bond|financing|indenture|underwritten|underwriters|investors|investor|gross|million|billion|price|subscription|raise|raised|raising|raises|convertible|term|funding",
    },
    Need {
        kind: Divestiture,
        pattern: "business|businesses|segment|subsidiary|subsidiaries|division|unit|operations|operation|assets|asset|interest|interests|stake|shares|property|properties|facility|plant|brand|brands|portfolio|spin-off|spinoff|separation|sale|line",
    },
];

/// How many patterns each kind has (for the docs and a test that every kind but risk has one).
pub fn count(kind: SignalKind) -> usize {
    RULES.iter().filter(|r| r.kind == kind).count()
}
