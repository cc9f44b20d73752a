//! `gtms-edgar signals classify` end to end: the real binary reads JSONL sentences on stdin and
//! writes one verdict per line, the same verdict the extractor's code path gives; a bad
//! line fails with its line number and exit code 1.

use std::io::Write;
use std::process::{Command, Stdio};

use gtms_edgar::extract::signals::verdict;

fn run(input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gtms-edgar"))
        .args(["signals", "classify"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn gtms: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).unwrap_or_else(|e| panic!("stdin: {e}"));
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("wait: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn classify_writes_the_extractors_verdict_for_each_input_line() {
    let sentences = [
        (
            "On April 24, 2023, the Board of Directors authorized the repurchase of up to $10 billion of our common stock.",
            "10-Q",
            "2023-07-27",
        ),
        (
            "As of August 26, 2023, we employed approximately 119,000 AutoZoners, approximately 60 percent of whom were employed full-time.",
            "10-K",
            "2023-10-23",
        ),
        ("We plan to open 20 new stores in Texas during 2024, our first outside California.", "10-K", "2023-11-20"),
        (
            "In July 2018, we entered into a fifth amended and restated credit agreement with our lenders.",
            "10-K",
            "2022-11-28",
        ),
    ];
    let input: String = sentences
        .iter()
        .map(|(text, form, filed)| format!("{}\n", serde_json::json!({"text": text, "form": form, "filed": filed})))
        .collect();
    let (ok, stdout, stderr) = run(&input);
    assert!(ok, "{stderr}");
    let lines: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    assert_eq!(lines.len(), sentences.len());
    for ((text, form, filed), line) in sentences.iter().zip(&lines) {
        let expected = serde_json::to_value(verdict(text, form, filed, None)).unwrap_or_default();
        assert_eq!(line, &expected, "{text}");
    }
    assert_eq!(lines[0]["kind"], "buyback");
    assert_eq!(lines[0]["trigger"], true);
    assert_eq!(lines[0]["event_date"], "2023-04-24");
    assert_eq!(lines[1], serde_json::json!({"kind": null, "trigger": false, "score": 0}), "headcount is no signal");
    assert_eq!(lines[2]["kind"], "expansion");
    assert_eq!(lines[2]["trigger"], false, "a plan is a signal but not a trigger");
    assert_eq!(lines[3]["kind"], "capital_raise", "an old event keeps its kind");
    assert_eq!(lines[3]["trigger"], false, "over two years before its filing it is no trigger");
}

#[test]
fn a_line_that_is_not_a_sentence_object_fails_with_its_number() {
    let (ok, stdout, stderr) = run("{\"text\": \"We opened 42 new stores in Texas during 2023 and more.\"}\n[1, 2]\n");
    assert!(!ok);
    assert_eq!(stdout.lines().count(), 1, "the good first line was answered");
    assert!(stderr.contains("line 2"), "{stderr}");
}
