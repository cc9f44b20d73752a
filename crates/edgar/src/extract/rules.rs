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
    // Shares issued as the price of a merger or an acquisition, before capital raises.
    r(Acquisition, "issued .. shares .. connection|relation with|to .. merger|acquisition"),
    r(Acquisition, "connection|relation with|to .. merger|acquisition .. issued"),
    r(Acquisition, "in exchange for .. outstanding"),
    r(Acquisition, "issued .. exchange for .. outstanding"),
    // An agency's order, before "issued" of a capital raise.
    r(Regulatory, "sec|ftc|fda|doj|epa|commission|agency .. issued|entered .. order|orders"),
    // Capital raises.
    r(CapitalRaise, "{self} .. issued .. notes|shares|debentures|bonds|stock|warrants|units|securities"),
    r(CapitalRaise, "issued and sold"),
    r(CapitalRaise, "agreed to issue"),
    r(CapitalRaise, "{self} sold .. shares|notes|debentures|units|warrants"),
    r(CapitalRaise, "completed|closed|priced .. offering|placement"),
    r(
        CapitalRaise,
        "entered into .. credit|loan|indenture|revolving|promissory|financing agreement|facility|note|notes",
    ),
    r(CapitalRaise, "entered into .. indenture"),
    r(CapitalRaise, "entered into .. securities|equity|at-the-market purchase|distribution|sales agreement"),
    r(CapitalRaise, "raised .. million|billion"),
    r(CapitalRaise, "entered|obtained .. loan|credit|revolving|facility|facilities"),
    // Buying back its own shares, before acquisitions ("the Company acquired 663,380 shares of
    // its common stock").
    r(Buyback, "{self} .. acquire|acquired|purchase|purchased .. shares of its|our"),
    // Space and property taken on, before acquisitions ("acquired additional premises").
    r(Expansion, "acquired|leased .. additional .. premises|space|square|acres"),
    r(Expansion, "acquired|purchased .. land|building|buildings"),
    r(Acquisition, "purchased|acquired .. all .. outstanding"),
    // Acquisitions.
    r(Acquisition, "completed|closed|announced|consummated .. acquisition|acquisitions|merger"),
    r(Acquisition, "{self} .. acquired"),
    r(Acquisition, "closing of .. acquisition|merger"),
    r(Acquisition, "agreed to acquire|merge"),
    r(Acquisition, "entered into .. agreement .. to acquire"),
    r(Acquisition, "entered into .. merger agreement"),
    r(Acquisition, "agreement and plan of merger"),
    r(Acquisition, "will acquire"),
    r(Acquisition, "acquisition of .. was completed"),
    // Divestitures.
    r(Divestiture, "completed|closed|announced .. sale|spin-off|separation|divestiture|disposition"),
    r(Divestiture, "{self} sold|divested"),
    r(Divestiture, "{self} .. agreed to sell"),
    r(Divestiture, "entered into .. agreement .. to sell"),
    r(Divestiture, "spun off"),
    r(Divestiture, "through .. spin-off|spinoff"),
    // Partnerships.
    r(Partnership, "entered into .. partnership|collaboration|alliance|co-development|joint"),
    r(Partnership, "entered into .. license|licensing agreement"),
    r(Partnership, "partnered with"),
    r(Partnership, "formed .. joint venture|partnership|alliance"),
    r(Partnership, "announced .. partnership|collaboration|alliance"),
    // Customers.
    r(Customer, "{self} .. awarded|won .. contract|contracts|order|orders"),
    r(Customer, "{self} .. selected by"),
    r(Customer, "signed .. contract|contracts|agreement with"),
    r(Customer, "entered into .. supply|services|master|distribution agreement"),
    // Leadership.
    r(LeadershipChange, "was|were|been|has|have|had|board|{self} appointed"),
    r(
        LeadershipChange,
        "appointed|named|elected .. as .. chief|president|director|officer|chairman|chair|treasurer|secretary|ceo|cfo",
    ),
    r(LeadershipChange, "appointed|elected .. to .. board"),
    r(LeadershipChange, "was|were|been elected"),
    r(LeadershipChange, "was|were|been named"),
    r(LeadershipChange, "joined .. as"),
    r(LeadershipChange, "will|to retire|resign"),
    r(LeadershipChange, "retired|resigned as|from"),
    r(LeadershipChange, "stepped down"),
    r(LeadershipChange, "will step down"),
    r(LeadershipChange, "will succeed"),
    r(LeadershipChange, "succeeded|promoted"),
    r(LeadershipChange, "will serve as"),
    r(LeadershipChange, "announced .. retirement|departure|resignation"),
    // Restructuring.
    r(Restructuring, "announced|implementing|implemented|initiated|approved|began .. restructuring"),
    r(Restructuring, "restructuring plan|program|initiative"),
    r(Restructuring, "incurred .. restructuring"),
    r(Restructuring, "reduction in force"),
    r(Restructuring, "workforce reduction|reductions"),
    r(Restructuring, "reduced|reduce .. workforce|headcount"),
    r(Restructuring, "reduction of|in .. workforce|headcount|employees"),
    r(Restructuring, "wind|winding down"),
    r(Restructuring, "{self} .. discontinued|exited"),
    // Buybacks (before "closed" facilities and dividends: "the Board authorized").
    r(Buyback, "authorized|approved|announced .. repurchase|repurchases|buyback"),
    r(Buyback, "{self} .. repurchased"),
    r(Buyback, "accelerated share repurchase"),
    // Dividends.
    r(Dividend, "declared .. dividend|dividends"),
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
    r(Expansion, "plan|plans|planned to open|build"),
    r(Expansion, "will open"),
    r(Expansion, "construct .. mill|plant|facility|factory|headquarters|campus|store|stores"),
    // Restructuring closures after expansion's "opened" (same start word wins by order).
    r(
        Restructuring,
        "{self} .. closed .. facility|facilities|plant|plants|store|stores|office|offices|operations|locations|centers|sites|restaurants|branches",
    ),
    // A new line of business, before products ("launched our single-family rental division").
    r(Expansion, "launched .. division|business|segment"),
    // Products.
    r(Product, "{self} .. launched|introduced|unveiled|released"),
    r(Product, "began shipping|selling"),
    r(Product, "commercial launch|availability"),
    r(Product, "began|initiated|completed .. enrollment|trial|study"),
    r(Product, "dosed .. first"),
    dated(Product, "introduction|launch|launches of"),
    // Regulatory.
    r(Regulatory, "received|obtained|granted .. approval|clearance|authorization|designation"),
    r(Regulatory, "fda|ema|fcc|cpuc|ferc|commission|agency|regulators .. approved|cleared|granted"),
    r(Regulatory, "non-prosecution|deferred-prosecution agreement"),
    r(Regulatory, "consent decree|order"),
    r(Regulatory, "settlement agreement"),
    r(Regulatory, "settled .. with"),
    // Outlook: guidance issued or changed.
    r(Outlook, "raised|lowered|reaffirmed|issued|updated|increased|reduced .. guidance|outlook"),
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
    v(CapitalRaise, "exercise|vesting of"),
    v(CapitalRaise, "lease|leases|sublease"),
    v(CapitalRaise, "to|for .. director|directors|employees|officers|consultants"),
    v(CapitalRaise, "award|awards|options|vested|rsu|rsus"),
    v(CapitalRaise, "option grant|grants"),
    v(CapitalRaise, "vendor|vendors|satisfaction|convert|conversion|converted|settle|settlement|judgment"),
    v(CapitalRaise, "issued and outstanding"),
    v(CapitalRaise, "with .. existing banks|lenders"),
    // Notes bought back are debt management; running totals and tax withholding are no programme.
    v(Buyback, "repurchase|repurchased|repurchases|repurchasing .. notes|debentures|bonds|debt"),
    v(Buyback, "have|has repurchased"),
    v(Buyback, "withheld|withholding"),
    // Litigation and terms of office are no leadership change.
    v(LeadershipChange, "defendant|defendants|plaintiff|plaintiffs|lawsuit|complaint"),
    v(LeadershipChange, "hold|holds office"),
    // The company's own purchases are no customer win.
    v(Customer, "to purchase|buy|procure"),
    v(Customer, "purchase|purchases|buy|buys .. from"),
    // More of a stake already held, the acquired assets' accounting, a running total, something
    // acquired by someone else, the costs of a deal, a renaming: no acquisition.
    v(Acquisition, "acquired|acquire|purchased .. additional"),
    v(Acquisition, "assets|liabilities acquired"),
    v(Acquisition, "the acquired"),
    v(Acquisition, "had|was|were acquired"),
    v(Acquisition, "allocation|expenses"),
    v(Acquisition, "changed its name"),
    // Restructuring costs are accounting; exiting an agreement or a line sold is no restructuring.
    v(Restructuring, "incurred|costs|charges|expense|expenses"),
    v(Restructuring, "agreement|agreements"),
    v(Restructuring, "sale of"),
    // A strategy, an initiative or a statement launched is no product.
    v(Product, "plan|initiative|initiatives|program|statements|groups"),
    // A standing dividend rate; an opinion's assumptions; a former business.
    v(Dividend, "dividend rate"),
    v(Divestiture, "opinion|assumed|former"),
    // Plants built for customers' contracts; payments under an old settlement; a subsidiary
    // approved by a court: description and background.
    v(Expansion, "for which"),
    v(Regulatory, "payments"),
    v(Regulatory, "became .. subsidiary"),
];

/// How many patterns each kind has (for the docs and a test that every kind but risk has one).
pub fn count(kind: SignalKind) -> usize {
    RULES.iter().filter(|r| r.kind == kind).count()
}
