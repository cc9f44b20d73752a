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
    // Acquisitions.
    r(Acquisition, "completed|closed|announced|consummated .. acquisition|acquisitions|merger"),
    r(Acquisition, "{self} acquired"),
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
    r(Restructuring, "{self} .. discontinued|exited"),
    // Buybacks (before "closed" facilities and dividends: "the Board authorized").
    r(Buyback, "authorized|approved|announced .. repurchase|repurchases|buyback"),
    r(Buyback, "{self} .. repurchased"),
    r(Buyback, "accelerated share repurchase"),
    // Dividends.
    r(Dividend, "declared .. dividend|dividends"),
    r(Dividend, "increased|raised|initiated|reinstated|approved .. dividend|dividends"),
    // Expansion.
    r(Expansion, "{self} .. opened"),
    r(
        Expansion,
        "added|adding .. new .. store|stores|location|locations|restaurants|units|centers|clinics|branches|facilities|markets",
    ),
    r(Expansion, "{self} .. expanded .. into"),
    r(Expansion, "{self} .. expanded .. capacity|footprint|presence|operations|network|facility|plant|distribution"),
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

/// How many patterns each kind has (for the docs and a test that every kind but risk has one).
pub fn count(kind: SignalKind) -> usize {
    RULES.iter().filter(|r| r.kind == kind).count()
}
