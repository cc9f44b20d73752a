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
    // A separation from a person is an officer leaving, not a business separated ("announced the
    // mutually agreed separation between the Company and Mr. Porcelain as President and CEO",
    // session 32).
    r(LeadershipChange, "announced|announces .. separation between|of .. mr|ms|mrs|dr"),
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
    // The CSRC's notice that a filing is complete ("the CSRC published such Filing Completion
    // Notice"), before trials' "completed .. trial" ("under the Trial Measures").
    r(Regulatory, "csrc published|issued .. notice|notification"),
    r(Regulatory, "completed .. filing procedures"),
    r(Regulatory, "received .. notice|notification from the csrc"),
    // A voluntary separation programme is a workforce reduction, not a separation of a business.
    r(Restructuring, "announced|announces|announce .. voluntary separation|retirement"),
    // A productivity or savings programme announced or widened is a restructuring ("announced
    // the expansion of our productivity and reinvestment program", session 32).
    r(
        Restructuring,
        "announced|announces .. productivity|efficiency|cost-savings|cost-reduction .. program|programme|plan|initiative",
    ),
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
    // A "strategic investment agreement" is a partnership; other investment agreements a stake.
    r(Partnership, "signed|entered .. strategic investment agreement"),
    r(Acquisition, "signed|entered .. investment agreement"),
    r(Product, "announced|announces|announce .. launch|introduction|availability|release of"),
    r(Product, "today unveiled|unveils|launched|launches|introduced|introduces|debuted|debuts"),
    r(Customer, "announced|announces|announce .. new contract|contracts|orders"),
    r(Customer, "secured|secures|won|wins .. contract|contracts|order|orders"),
    r(Customer, "concluded|finalized .. contract|contracts"),
    // A settlement signed is a legal resolution, whatever else the agreement grants ("entered
    // into a settlement and patent license agreement with Caltech", "entered into a Settlement
    // Memorandum of Understanding", session 32), before partnerships' licences and memoranda.
    r(Regulatory, "entered|signed .. settlement"),
    // A memorandum to sell part of a business is a sale ("signed a non-binding memorandum of
    // understanding for GE Steam Power to sell a part of its nuclear activities to EDF").
    r(Divestiture, "signed|entered .. memorandum|mou .. to sell"),
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
    // "6,500,000 shares … were issued in exchange for the purchase of certain technological
    // assets of ZenSports" (session 32).
    r(Acquisition, "issued in exchange for the purchase|acquisition of"),
    // An agency's order, before "issued" of a capital raise.
    r(Regulatory, "sec|ftc|fda|doj|epa|commission|agency .. issued|entered .. order|orders"),
    // An investigation opened is a regulator's act, not a store opened ("the European
    // Commission informed Visa that it opened a preliminary investigation", session 31).
    r(Regulatory, "opened|commenced|initiated .. investigation|inquiry|probe"),
    // Shares sold: the company's own are a raise, another company's held as an investment a
    // sale ("sold 1.7 million shares of Energizer common stock", "sold our entire investment
    // of 1,677,299 shares of Limoneira"); both before the plain "{self} sold .. shares".
    r(CapitalRaise, "sold .. shares of our|its common|ordinary|class|capital|preferred"),
    // "sold 833,333 shares of common for $100,000": its own shares, before "shares of _ for".
    r(CapitalRaise, "sold .. shares of common|ordinary|preferred"),
    // "sold 11.8 million shares of Idorsia LTD (Idorsia), or its 8.3% ownership": a stake.
    r(Divestiture, "sold .. shares of .. ownership|stake|interest in"),
    r(Divestiture, "sold .. shares of _ common"),
    r(Divestiture, "sold .. shares of _ for"),
    r(Divestiture, "sold .. its|our shares|stake|interest in"),
    r(Divestiture, "sold .. entire|remaining investment|stake|interest|holding|holdings"),
    // "sold all shares held for a total of $42.7 million": a holding sold, before the raise's
    // "{self} sold .. shares".
    r(Divestiture, "sold all shares|stock held"),
    // "agreed to sell all of its shares in REIT Holdings", before the raise's "agreed to sell".
    r(Divestiture, "agreed to sell .. its|our shares|stake|interest in"),
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
    // "the Company launched another offering", before products' "launched".
    r(CapitalRaise, "launched .. offering|offerings"),
    // An investor's investment in the company is a raise ("Meridian completed a strategic
    // initial investment in our company"); the company's own in another a stake bought ("made a
    // $100.0 million cornerstone investment in ADNOC Drilling"), before an IPO it names.
    r(CapitalRaise, "completed|closed|made .. investment in our|the company"),
    r(Acquisition, "made .. cornerstone|strategic|minority|equity investment in"),
    // A PIPE or a financing closed, before acquisitions' "closed .. investment in".
    r(CapitalRaise, "completed|closed .. financing|pipe"),
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
    // "closed a $10.0 million line-of-credit facility": a financing, before restructuring's
    // facilities closed.
    r(CapitalRaise, "closed|closes .. line-of-credit|credit|loan|revolving|term facility|loan|line|note|agreement"),
    r(CapitalRaise, "raised|raises .. million|billion"),
    r(CapitalRaise, "secured|secures .. funding|financing"),
    r(CapitalRaise, "entered|obtained .. loan|credit|revolving|facility|facilities"),
    // Rights bought to broadcast or distribute another's work are a licence ("acquired the
    // broadcast right of On the Way from All In One Media Ltd"), no company bought.
    r(
        Partnership,
        "acquired|purchased .. broadcast|broadcasting|streaming|distribution|licensing|license right|rights",
    ),
    // A licence an authority issues is regulatory ("obtained the license for value-added
    // telecommunications services issued by the Ministry of Industry and Information
    // Technology", session 32), before a licence acquired from a company.
    r(Regulatory, "acquired|obtained|received a|an|the .. license|licence|permit .. issued by"),
    // A licence acquired is a licence, no company bought ("we acquired a patent license to a
    // video synthesis and release system", session 31).
    r(Partnership, "acquired|obtained a|an|the license|licence|licenses"),
    r(Partnership, "acquired|obtained a|an|the _ license|licence|licenses"),
    // A franchise right acquired is a licence too ("acquired the exclusive franchise right
    // authorized by PLK APAC").
    r(Partnership, "acquired|purchased .. franchise right|rights"),
    // Buying back its own shares, before acquisitions ("the Company acquired 663,380 shares of
    // its common stock").
    r(Buyback, "{self} .. acquire|acquired|purchase|purchased .. shares of its|our"),
    // Space and property taken on, before acquisitions ("acquired additional premises").
    r(Expansion, "acquired|leased .. additional .. premises|space|square|acres"),
    // Equipment bought and put to work ("we acquired and installed two new automated sewing
    // conveyor systems for increased capacity", session 32).
    r(Expansion, "acquired|purchased and installed"),
    // Land rights "acquired … through the acquisition of Jiangxi Huiyi": a company bought.
    r(Acquisition, "acquired .. through the acquisition of"),
    r(Expansion, "acquired|purchased .. land|building|buildings|site"),
    // A property bought for the company's own offices ("acquired a non-income-producing corporate
    // property for $458,000 in cash, to be used for office space", session 32).
    r(Expansion, "acquired|purchased .. property .. office|offices|headquarters"),
    r(Acquisition, "purchased|acquired .. all .. outstanding"),
    r(Expansion, "acquired|purchased .. production line|lines"),
    // Mining machines bought ("purchased 1,050 used ASIC miners"), before customers' "entered
    // into .. services agreement" later in the sentence.
    r(Expansion, "acquired|purchased .. miners"),
    // The same agreement "for the sale of" a subsidiary is the company selling it.
    r(Divestiture, "entered into .. purchase agreement for the sale of"),
    // The agreement under which the company sold ("entered into a Share Purchase Agreement ...
    // pursuant to which it sold its interests in Real Capital", session 32).
    r(Divestiture, "entered into .. purchase agreement .. pursuant to which it|we sold"),
    r(Acquisition, "entered into .. share purchase agreement"),
    r(Partnership, "under|through|via the joint venture .. {self} acquired|invested|formed"),
    // Acquisitions ("we expanded our operations in Europe in 2020 with the addition of Lixoft").
    r(Acquisition, "expanded .. with the addition|acquisition of"),
    // "expanded our presence in Texas by acquiring Endeavour Marina", "expanded our
    // international operations as a result of the closing of the Aetna Acquisition".
    r(Acquisition, "expanded .. by acquiring|purchasing"),
    r(Acquisition, "expanded .. as a result of .. acquisition|acquisitions|merger"),
    r(Acquisition, "completed|completes|closed|closes|announced|consummated .. acquisition|acquisitions|merger"),
    // "completed the sale of our investment in the Complex Media business" (session 32).
    r(Divestiture, "completed|completes|closed|closes .. sale of .. investment|stake|interest"),
    r(Acquisition, "completed|completes|closed|closes .. investment in"),
    r(Acquisition, "{self} .. acquired"),
    r(Acquisition, "closing of .. acquisition|merger"),
    r(Acquisition, "agreed|agreement|agreements to acquire|merge"),
    dated(Acquisition, "{self} .. acquires"),
    // Rights acquired under a licence ("entered into the Inventor License Agreement to acquire
    // global rights", "entered into a license agreement with the inventor … to acquire global
    // rights", session 31).
    r(Partnership, "entered into .. license|licensing|licence agreement .. to acquire"),
    r(Acquisition, "entered into .. agreement .. to acquire"),
    r(Acquisition, "entered into .. merger agreement|agreements"),
    r(Acquisition, "agreement and plan of merger"),
    r(Acquisition, "will acquire"),
    r(Acquisition, "acquisition of .. was completed"),
    // Notes sold are money raised, not a business sold ("completed the public offer and sale of
    // senior unsecured notes", session 31).
    r(CapitalRaise, "completed|completes|closed|closes .. sale|offer|offering of .. notes|debentures|bonds"),
    // Divestitures.
    r(Divestiture, "completed|completes|closed|closes|announced .. sale|spin-off|separation|divestiture|disposition"),
    r(Divestiture, "{self} sold|divested"),
    // The company's own shares sold to subscribers ("the Company agreed to sell and the
    // Subscribers agreed to purchase an aggregate of 10,000,000 Class A Ordinary Shares",
    // session 32), before the sale of a business.
    r(CapitalRaise, "agreed to sell and the subscribers|subscriber|investors|investor|purchasers|purchaser"),
    r(Divestiture, "{self} .. agreed to sell"),
    r(Divestiture, "entered into .. agreement .. to sell"),
    // "signed a share transfer agreement with a third party to sell its 100% equity interest".
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
    // An agreement signed "to license" a technology, and a development and supply agreement, are
    // partnerships (session 30: "signed an exclusive agreement with Novellus ... to license
    // iPSC-derived mesenchymal stem cells").
    r(Partnership, "signed|entered into .. agreement .. to license"),
    r(Partnership, "entered into .. supply agreement .. to design|develop|co-develop"),
    r(Partnership, "entered into .. development and supply agreement"),
    // Customers.
    r(Customer, "{self} .. awarded|won .. contract|contracts|order|orders"),
    r(Customer, "{self} .. selected by"),
    r(Customer, "signed .. contract|contracts|agreement with"),
    // A manufacturing agreement is with the company's own maker ("entered into a five-year
    // manufacturing supply agreement with Intercon Chemical Company", session 32).
    r(Partnership, "entered into .. manufacturing agreement"),
    r(Partnership, "entered into .. manufacturing supply agreement"),
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
    // "The exit of the Spain facility was complete … and we sold the Spain facility".
    r(Restructuring, "exit of the .. facility|facilities|plant|plants|operations|office|offices"),
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
    // "This new Charleroi factory expansion builds on ..." (before hiring's "create .. jobs").
    r(Expansion, "new .. factory|plant|facility|campus expansion"),
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
    // A company launched to enter a field is a new line of business ("launched Empower Genomics
    // Corp. (Empower) to enter the genetic and diagnostics testing industry", session 32).
    r(Expansion, "launched .. to enter"),
    // A programme of savings launched ("launched Project Uno, a strategic set of initiatives that
    // seeks to identify areas of operating efficiencies and cost savings", session 32), before a
    // project launched as a line of business.
    r(Restructuring, "launched .. initiative|initiatives|program|programme|project .. efficiencies|efficiency|savings"),
    // A project launched "in partnership with" another party.
    r(Partnership, "launched .. in partnership|collaboration with"),
    // A service, platform or app launched is a product ("walmart.com launched its Site to Store
    // service", "launched our first automotive products supply chain cloud platform"), before a
    // line of business's "launched .. store|chain".
    r(Product, "launched .. service|platform|platforms|app|application|website"),
    // A new line of business, before products ("launched our single-family rental division").
    r(
        Expansion,
        "launched .. division|business|segment|warehouse|factory|plant|facility|store|stores|center|centre|subsidiary|field|project|space|brokerage|branch|office|chain|restaurant|restaurants",
    ),
    // Products.
    // A company launched is a new line of business ("launched Solas Corp. (Solas) as an
    // end-to-end management and oversight company", session 32), before products.
    r(Expansion, "launched _ corp|inc|llc|ltd|limited|corporation"),
    r(Expansion, "launched _ _ corp|inc|llc|ltd|limited|corporation"),
    r(Product, "{self} .. launched|introduced|unveiled|released"),
    // The company's own shipments ("Vivo began shipping Dolby Vision Capture phones" is a
    // customer's).
    r(Product, "{self} .. began shipping|selling"),
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
    // An operating licence obtained ("obtained a value-added telecommunications businesses
    // operation license").
    r(
        Regulatory,
        "received|obtained|granted .. operation|operating|business|telecommunications license|licence|permit",
    ),
    r(Regulatory, "fda|ema|fcc|cpuc|ferc|fdic|occ|commission|agency|regulators .. approved|cleared|granted"),
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

/// How many patterns each kind has (for the docs and a test that every kind but risk has one).
pub fn count(kind: SignalKind) -> usize {
    RULES.iter().filter(|r| r.kind == kind).count()
}
