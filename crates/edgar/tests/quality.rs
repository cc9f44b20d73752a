//! Signal quality against hand-judged sentences (`make quality`), each set run through the
//! extractor's own verdict (`signals::verdict`), judged by the rules in `docs/signal-rules.md`:
//!
//! - development sets, tuned on: `eval.jsonl` (340 sentences drawn from the corpus, judged in
//!   session 4), `shared_dev.json` (150 signals an earlier build served, judged by hand
//!   outside the project, `../shared/quality/`) and `dev_emitted.jsonl` (150 sentences the
//!   classifier emitted in session 15 before its last changes, judged blind: drawn as a
//!   held-aside set, measured once — kind accuracy 62.7 %, false signals 26.7 % — then tuned on);
//! - spent sets, judged blind and measured once as held aside, then read and tuned on in
//!   sessions 16 to 23 (so no longer a fair measure; printed, not asserted):
//!   `heldaside.jsonl` (258 sentences, seed `gtms-25`: 130 at random, 128 with a signal
//!   keyword), `heldaside_emitted.jsonl` (150 sentences the session-15 classifier emitted, seed
//!   `gtms-25c`), `new_sources.jsonl` (70 statements served from the 2024–2026 filings and
//!   the press releases), `heldaside_served.jsonl` (177 statements the session-16 cards served
//!   before its second round of tuning, seed `gtms-25e`), `heldaside_served2.jsonl` (179 the
//!   final session-16 cards served, seed `gtms-25f`): each measured blind once, then read;
//!   `heldaside_served3.jsonl` (181 the session-17 cards served, seed `gtms-25g`; read in
//!   session 20 and tuned on in session 23) and `heldaside_served4.jsonl` (200 the first
//!   session-23 build served, seed `gtms-25h`: measured blind once, then read and tuned on);
//!   `heldaside_served5.jsonl` (200 the final session-23 cards served, seed `gtms-25i`),
//!   `release_leads.jsonl` (the 38 statements releases' lead sentences added once their
//!   datelines were cut, session 23), `heldaside_served6.jsonl` (200 the session-24 cards
//!   served, seed `gtms-25j`), `heldaside_served7.jsonl` (200 the first session-25 build served,
//!   seed `gtms-25k`) and `heldaside_served8.jsonl` (200 the second session-25 build served,
//!   seed `gtms-25l`): each measured blind once, then read and tuned on in session 25;
//!   `heldaside_served9.jsonl` (200 the final session-25 build served, seed `gtms-25m`) and
//!   `heldaside_served10.jsonl` and `heldaside_served11.jsonl` (200 each the first and second
//!   session-26 builds served, seeds `gtms-25n`, `gtms-25o`): each measured blind once, then
//!   read and tuned on in session 26; `heldaside_served12.jsonl` (200 the final session-26
//!   build served, seed `gtms-25p`) and `heldaside_served13.jsonl` (200 the first session-28
//!   build served, seed `gtms-25q`): each measured blind once, then read and tuned on in
//!   session 28; `heldaside_served14.jsonl` (200 the final session-28 build served, seed
//!   `gtms-25r`) and `heldaside_served15.jsonl` (191 the first session-30 build served, seed
//!   `gtms-25s`): each measured blind once, then read and tuned on in session 30;
//!   `heldaside_served17.jsonl` (144 the first session-31 build served, with the second
//!   reading, seed `gtms-25u`): measured blind once, then read and tuned on in session 31;
//!   `heldaside_served18.jsonl` and `heldaside_served19.jsonl` (142 and 140 the final session-31
//!   build served, seeds `gtms-25v`, `gtms-25w`): measured blind once as held aside, then read
//!   and tuned on in session 32; `heldaside_served20.jsonl` and `heldaside_served21.jsonl` (143
//!   and 140 the first session-32 build served, seeds `gtms-25x`, `gtms-25y`): measured blind
//!   once, then read and tuned on in session 32;
//! - the held-aside sets, never tuned on (nor trained on by the second reading,
//!   `train_no_event.py`), judged blind (the judges saw neither the rules' code nor the
//!   verdicts): `heldaside_served16.jsonl`, 141 statements the final session-30 build serves,
//!   drawn like the others (seed `gtms-25t`: 140 at random over every served statement not
//!   judged before, and the one statement dated 2025 or later left unjudged), and
//!   `heldaside_served22.jsonl` and `heldaside_served23.jsonl`, 140 statements each that the
//!   final session-32 build serves (seeds `gtms-25z`, `gtms-25za`, 140 at random) — the
//!   precision of what a card shows.
//!
//! Prints, per set, kind accuracy (emitted signals of the judged kind), false signals (emitted,
//! judged no event), the recall of judged triggers and the share of random sentences emitted;
//! holds the budgets (kind accuracy ≥ 90 %, false signals ≤ 5 %) on the development sets. The
//! held-aside figures are printed, not asserted: tuning until they pass would make them
//! development data too (the closing notes record them).

use std::collections::BTreeMap;

use gtms_edgar::extract::signals::verdict;

const DIR: &str = "tests/fixtures/signals";

/// One judged sentence, whichever set it comes from.
#[derive(serde::Deserialize)]
struct Judged {
    #[serde(default)]
    stratum: Option<String>,
    company: String,
    text: String,
    form: String,
    filed: String,
    /// The judged kind (`kind` in our sets, `gold_kind` in the shared one; `none` or null for
    /// no event). A risk is no event either.
    #[serde(alias = "gold_kind")]
    kind: Option<String>,
    /// `yes` when a seller could open with it today (sets judged with triggers).
    #[serde(default)]
    trigger: Option<String>,
}

impl Judged {
    fn event(&self) -> Option<&str> {
        self.kind.as_deref().filter(|k| !matches!(*k, "none" | "risk"))
    }
}

fn read(file: &str) -> Vec<Judged> {
    let path = format!("{DIR}/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if file.ends_with(".json") {
        return serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {l}: {e}")))
        .collect()
}

#[derive(Default)]
struct Tally {
    /// Per kind: (emitted with this kind, of those right, judged this kind).
    kinds: BTreeMap<String, (usize, usize, usize)>,
    sentences: usize,
    events: usize,
    emitted: usize,
    right_kind: usize,
    false_signals: usize,
    events_found: usize,
    triggers: usize,
    triggers_found: usize,
    random: usize,
    random_emitted: usize,
    random_false: usize,
    errors: Vec<String>,
}

fn evaluate(set: &[Judged]) -> Tally {
    let mut t = Tally::default();
    for j in set {
        let got = verdict(&j.text, &j.form, &j.filed, Some(&j.company)).kind.map(|k| k.as_str());
        let gold = j.event();
        t.sentences += 1;
        let random = j.stratum.as_deref() == Some("all");
        t.random += usize::from(random);
        if let Some(k) = gold {
            t.events += 1;
            t.kinds.entry(k.to_owned()).or_default().2 += 1;
        }
        if j.trigger.as_deref() == Some("yes") {
            t.triggers += 1;
            t.triggers_found += usize::from(got.is_some());
        }
        if let Some(g) = got {
            t.emitted += 1;
            t.random_emitted += usize::from(random);
            let entry = t.kinds.entry(g.to_owned()).or_default();
            entry.0 += 1;
            if gold == Some(g) {
                entry.1 += 1;
                t.right_kind += 1;
            }
            t.false_signals += usize::from(gold.is_none());
            t.random_false += usize::from(random && gold.is_none());
            t.events_found += usize::from(gold.is_some());
        }
        if got != gold {
            t.errors.push(format!("judged {gold:?}, got {got:?}: {}", j.text));
        }
    }
    t
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 { 100.0 } else { 100.0 * n as f64 / d as f64 }
}

fn print(name: &str, t: &Tally, with_errors: bool) {
    println!("\n== {name}: {} hand-judged sentences, {} judged events", t.sentences, t.events);
    println!("{:<18} {:>8} {:>8} {:>10} {:>8}", "kind", "emitted", "judged", "precision", "recall");
    for (kind, (emitted, right, judged)) in &t.kinds {
        let recall = pct(*right, *judged);
        println!("{kind:<18} {emitted:>8} {judged:>8} {:>9.1}% {recall:>7.1}%", pct(*right, *emitted));
    }
    println!("emitted signals: {}", t.emitted);
    println!("kind accuracy (emitted signals with the judged kind): {:.1}%", pct(t.right_kind, t.emitted));
    println!("false signals (emitted, judged no event): {:.1}%", pct(t.false_signals, t.emitted));
    println!(
        "events found (recall, any kind): {}/{} = {:.1}%",
        t.events_found,
        t.events,
        pct(t.events_found, t.events)
    );
    if t.triggers > 0 {
        let found = pct(t.triggers_found, t.triggers);
        println!("triggers found (judged trigger, emitted): {}/{} = {found:.1}%", t.triggers_found, t.triggers);
    }
    if t.random > 0 {
        println!(
            "random sentences emitted: {}/{} = {:.1}% (judged no event: {}/{} = {:.1}%)",
            t.random_emitted,
            t.random,
            pct(t.random_emitted, t.random),
            t.random_false,
            t.random,
            pct(t.random_false, t.random)
        );
    }
    if with_errors {
        for e in &t.errors {
            println!("  {e}");
        }
    }
}

#[test]
fn signal_quality_meets_its_budgets_on_the_development_sets_and_reports_the_held_aside() {
    for (name, file) in [
        ("development: eval.jsonl", "eval.jsonl"),
        ("development: shared_dev.json", "shared_dev.json"),
        ("development: dev_emitted.jsonl", "dev_emitted.jsonl"),
    ] {
        let t = evaluate(&read(file));
        print(name, &t, true);
        assert!(pct(t.right_kind, t.emitted) >= 90.0, "{name}: kind accuracy below 90 %");
        assert!(pct(t.false_signals, t.emitted) <= 5.0, "{name}: false signals above 5 %");
    }
    for (name, file) in [
        ("spent: heldaside.jsonl", "heldaside.jsonl"),
        ("spent: heldaside_emitted.jsonl", "heldaside_emitted.jsonl"),
        ("spent: new_sources.jsonl", "new_sources.jsonl"),
        ("spent: heldaside_served.jsonl", "heldaside_served.jsonl"),
        ("spent: heldaside_served2.jsonl", "heldaside_served2.jsonl"),
        ("spent: heldaside_served3.jsonl", "heldaside_served3.jsonl"),
        ("spent: heldaside_served4.jsonl", "heldaside_served4.jsonl"),
        ("spent: heldaside_served5.jsonl", "heldaside_served5.jsonl"),
        ("spent: release_leads.jsonl", "release_leads.jsonl"),
        ("spent: heldaside_served6.jsonl", "heldaside_served6.jsonl"),
        ("spent: heldaside_served7.jsonl", "heldaside_served7.jsonl"),
        ("spent: heldaside_served8.jsonl", "heldaside_served8.jsonl"),
        ("spent: heldaside_served9.jsonl", "heldaside_served9.jsonl"),
        ("spent: heldaside_served10.jsonl", "heldaside_served10.jsonl"),
        ("spent: heldaside_served11.jsonl", "heldaside_served11.jsonl"),
        ("spent: heldaside_served12.jsonl", "heldaside_served12.jsonl"),
        ("spent: heldaside_served13.jsonl", "heldaside_served13.jsonl"),
        ("spent: heldaside_served14.jsonl", "heldaside_served14.jsonl"),
        ("spent: heldaside_served15.jsonl", "heldaside_served15.jsonl"),
        ("spent: heldaside_served17.jsonl", "heldaside_served17.jsonl"),
        ("spent: heldaside_served18.jsonl", "heldaside_served18.jsonl"),
        ("spent: heldaside_served19.jsonl", "heldaside_served19.jsonl"),
        ("spent: heldaside_served20.jsonl", "heldaside_served20.jsonl"),
        ("spent: heldaside_served21.jsonl", "heldaside_served21.jsonl"),
        ("held aside: heldaside_served16.jsonl", "heldaside_served16.jsonl"),
        ("held aside: heldaside_served22.jsonl", "heldaside_served22.jsonl"),
        ("held aside: heldaside_served23.jsonl", "heldaside_served23.jsonl"),
    ] {
        let set = read(file);
        assert!(set.len() >= 30, "{file} has {} sentences", set.len());
        // Errors are not printed: reading them is how a held-aside set becomes a tuned one.
        print(name, &evaluate(&set), false);
    }
}
