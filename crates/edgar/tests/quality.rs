//! Signal quality against the hand-judged evaluation set (`tests/fixtures/signals/eval.jsonl`,
//! drawn by `examples/signals_sample`, judged by the rules in `docs/signal-rules.md`): runs
//! every sentence through the extractor's own verdict, prints per-kind precision and recall,
//! kind accuracy and the false-signal rate (`make quality`), and holds the budgets: kind
//! accuracy ≥ 90 % and false signals ≤ 5 % of emitted signals.

use std::collections::BTreeMap;

use gtms_edgar::extract::signals::verdict;

const FIXTURE: &str = "tests/fixtures/signals/eval.jsonl";

#[derive(serde::Deserialize)]
struct Judged {
    stratum: String,
    company: String,
    text: String,
    form: String,
    filed: String,
    kind: Option<String>,
}

#[derive(Default)]
struct Tally {
    /// Per kind: (emitted with this kind, of those right, judged this kind).
    kinds: BTreeMap<String, (usize, usize, usize)>,
    sentences: usize,
    signals: usize,
    emitted: usize,
    right_kind: usize,
    false_signals: usize,
    found: usize,
    errors: Vec<String>,
}

fn evaluate() -> Tally {
    let text = std::fs::read_to_string(FIXTURE).unwrap_or_else(|e| panic!("{FIXTURE}: {e}"));
    let mut t = Tally::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let j: Judged = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(matches!(j.stratum.as_str(), "all" | "keyword"), "{}", j.stratum);
        let got = verdict(&j.text, &j.form, &j.filed, Some(&j.company)).kind.map(|k| k.as_str().to_owned());
        t.sentences += 1;
        t.signals += usize::from(j.kind.is_some());
        if let Some(k) = &j.kind {
            t.kinds.entry(k.clone()).or_default().2 += 1;
        }
        if let Some(g) = &got {
            t.emitted += 1;
            let entry = t.kinds.entry(g.clone()).or_default();
            entry.0 += 1;
            if j.kind.as_ref() == Some(g) {
                entry.1 += 1;
                t.right_kind += 1;
            }
            t.false_signals += usize::from(j.kind.is_none());
        }
        t.found += usize::from(got.is_some() && j.kind.is_some());
        if got != j.kind {
            t.errors.push(format!("judged {:?}, got {:?}: {}", j.kind, got, j.text));
        }
    }
    t
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 { 100.0 } else { 100.0 * n as f64 / d as f64 }
}

fn print(t: &Tally) {
    println!("signal quality over {} hand-judged sentences ({} judged signals)", t.sentences, t.signals);
    println!("{:<18} {:>8} {:>8} {:>10} {:>8}", "kind", "emitted", "judged", "precision", "recall");
    for (kind, (emitted, right, judged)) in &t.kinds {
        let recall = pct(*right, *judged);
        println!("{kind:<18} {emitted:>8} {judged:>8} {:>9.1}% {recall:>7.1}%", pct(*right, *emitted));
    }
    println!("emitted signals: {}", t.emitted);
    println!("kind accuracy (emitted signals with the judged kind): {:.1}%", pct(t.right_kind, t.emitted));
    println!("false signals (emitted, judged no signal): {:.1}%", pct(t.false_signals, t.emitted));
    println!("signals found (recall, any kind): {:.1}%", pct(t.found, t.signals));
    let agree = t.sentences - t.errors.len();
    println!("sentences where verdict = judgement: {:.1}%", pct(agree, t.sentences));
    for e in &t.errors {
        println!("  {e}");
    }
}

#[test]
fn signal_quality_meets_its_budgets() {
    let t = evaluate();
    print(&t);
    assert!(t.sentences >= 300, "the evaluation set has {} sentences", t.sentences);
    assert!(pct(t.right_kind, t.emitted) >= 90.0, "kind accuracy below 90 %");
    assert!(pct(t.false_signals, t.emitted) <= 5.0, "false signals above 5 %");
}
