//! The signal verdict on one sentence — kind, trigger, score, event date — exactly as the
//! extractor decides it (`statements::assess`), and `gtms-edgar signals classify`, which reads
//! JSONL `{text, form, filed, company?}` and writes one JSONL verdict per input line.
//! `company` (the legal name) lets a sentence that names the company ("Valvoline added
//! 467 new stores") count as being about it, as the extractor does per company.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

use super::statements::{assess, name_word};
use gtms_companies::domain::SignalKind;

/// The verdict on one sentence. `kind: None` means the extractor would drop it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub kind: Option<SignalKind>,
    /// A completed or announced event (false for a plan or a scheduled event, and for none).
    pub trigger: bool,
    pub score: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_date: Option<String>,
}

/// One input line of `gtms-edgar signals classify`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentenceIn {
    pub text: String,
    #[serde(default)]
    pub form: String,
    #[serde(default)]
    pub filed: String,
    #[serde(default)]
    pub company: Option<String>,
}

/// The verdict for one sentence of a `form` document filed on `filed` by `company`.
pub fn verdict(text: &str, form: &str, filed: &str, company: Option<&str>) -> Verdict {
    let name = company.and_then(name_word);
    match assess(text, form, filed, name.as_deref()) {
        Some(s) => Verdict { kind: Some(s.kind), trigger: s.trigger, score: s.score, event_date: s.event_date },
        None => Verdict { kind: None, trigger: false, score: 0, event_date: None },
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClassifyError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("line {line}: {source} (expected {{\"text\", \"form\", \"filed\", \"company\"?}})")]
    BadLine { line: usize, source: serde_json::Error },
}

/// Reads JSONL sentences and writes one JSONL verdict per line, in order. Blank lines are
/// skipped; a line that is not a sentence object stops with its line number.
pub fn classify_lines(input: impl BufRead, mut output: impl Write) -> Result<usize, ClassifyError> {
    let mut count = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let s: SentenceIn =
            serde_json::from_str(&line).map_err(|source| ClassifyError::BadLine { line: i + 1, source })?;
        let v = verdict(&s.text, &s.form, &s.filed, s.company.as_deref());
        serde_json::to_writer(&mut output, &v).map_err(std::io::Error::from)?;
        output.write_all(b"\n")?;
        count += 1;
    }
    output.flush()?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_verdict_line_per_input_line() {
        let input = concat!(
            r#"{"text": "On September 8, 2022, the Company entered into a term loan credit agreement with several financial institutions.", "form": "10-K", "filed": "2022-11-14"}"#,
            "\n\n",
            r#"{"text": "We may need additional financing in the future, which may not be available.", "form": "10-K", "filed": "2022-11-14"}"#,
            "\n"
        );
        let mut out = Vec::new();
        assert_eq!(classify_lines(input.as_bytes(), &mut out).ok(), Some(2));
        let text = String::from_utf8(out).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with(r#"{"kind":"capital_raise","trigger":true,"score":"#), "{}", lines[0]);
        assert!(lines[0].ends_with(r#""event_date":"2022-09-08"}"#), "{}", lines[0]);
        assert_eq!(lines[1], r#"{"kind":null,"trigger":false,"score":0}"#);
    }

    #[test]
    fn a_bad_line_names_its_number() {
        let err = classify_lines("{\"text\": \"x\"}\nnot json\n".as_bytes(), Vec::new()).err();
        assert!(matches!(err, Some(ClassifyError::BadLine { line: 2, .. })), "{err:?}");
    }
}
