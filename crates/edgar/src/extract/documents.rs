//! Reading stored filing documents into lines of normalised text, whatever their format:
//! HTML and inline-XBRL primary documents, XML (Forms 3/4/5), SGML full submissions split
//! into their `<DOCUMENT>`s, edgar-crawler extracted 10-K text, and 10-K item JSON. The
//! text produced here is the text quotes are verified against. Knows nothing of sentences
//! or companies.

use std::path::Path;

use super::ExtractError;
use super::manifest::{ManifestRow, read_gz};
use super::text::{
    decode_bytes, is_hard_wrapped, looks_like_markup, markup_to_lines, normalise_whitespace, text_to_lines,
    wrapped_text_to_lines,
};

/// `<TYPE>`s inside a full submission that hold no prose (images, XBRL, archives).
const NON_PROSE_TYPES: [&str; 7] = ["GRAPHIC", "ZIP", "EXCEL", "JSON", "XML", "PDF", "COVER"];

/// The text of one document: its lines and the whole text as one normalised string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocText {
    pub lines: Vec<String>,
    pub normalised: String,
}

impl DocText {
    pub fn from_lines(lines: Vec<String>) -> Self {
        let normalised = normalise_whitespace(&lines.join(" "));
        Self { lines, normalised }
    }

    /// Whether `quote` occurs verbatim in the document text (after whitespace normalisation).
    pub fn contains_verbatim(&self, quote: &str) -> bool {
        let q = normalise_whitespace(quote);
        !q.is_empty() && q == quote && self.normalised.contains(&q)
    }
}

/// One `<DOCUMENT>` of an SGML full submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgmlPart {
    pub doc_type: String,
    pub filename: String,
    pub text: DocText,
}

/// What a stored file turned out to hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// One document's text (HTML, iXBRL, XML, plain or extracted text, 10-K items).
    Text(DocText),
    /// A full submission, split into its prose documents.
    Submission(Vec<SgmlPart>),
}

/// Reads the stored file of a manifest row.
pub fn load(data_dir: &Path, row: &ManifestRow) -> Result<Loaded, ExtractError> {
    let path = data_dir.join(&row.local_path);
    let bytes = if row.local_path.ends_with(".gz") {
        read_gz(&path)?
    } else {
        std::fs::read(&path).map_err(|e| ExtractError::io(&path, e))?
    };
    let body = decode_bytes(&bytes);
    Ok(match row.content_kind.as_str() {
        "extracted-text" if is_hard_wrapped(&body) => Loaded::Text(DocText::from_lines(wrapped_text_to_lines(&body))),
        "extracted-text" => Loaded::Text(DocText::from_lines(text_to_lines(&body))),
        "extracted-items" => Loaded::Text(DocText::from_lines(items_to_lines(&body, &path)?)),
        _ if is_sgml(&body) => Loaded::Submission(split_submission(&body)),
        _ => Loaded::Text(DocText::from_lines(body_to_lines(&body, &row.document))),
    })
}

fn is_sgml(body: &str) -> bool {
    let head: String = body.chars().take(2000).collect();
    head.contains("<SEC-DOCUMENT>") || head.contains("<DOCUMENT>") || head.contains("<SEC-HEADER>")
}

/// Markup or plain text to lines; `.xml` documents keep every element on its own line.
fn body_to_lines(body: &str, name: &str) -> Vec<String> {
    if looks_like_markup(body) {
        markup_to_lines(body, name.to_ascii_lowercase().ends_with(".xml") || body.trim_start().starts_with("<?xml"))
    } else {
        wrapped_text_to_lines(body)
    }
}

/// Splits an SGML full submission into its `<DOCUMENT>`s, skipping non-prose types.
pub fn split_submission(body: &str) -> Vec<SgmlPart> {
    let mut parts = Vec::new();
    let mut rest = body;
    while let Some(start) = rest.find("<DOCUMENT>") {
        let after = &rest[start + "<DOCUMENT>".len()..];
        let end = after.find("</DOCUMENT>").unwrap_or(after.len());
        let doc = &after[..end];
        rest = &after[end..];
        let doc_type = sgml_value(doc, "<TYPE>");
        let filename = sgml_value(doc, "<FILENAME>");
        if NON_PROSE_TYPES.contains(&doc_type.as_str()) || doc_type.starts_with("EX-101") {
            continue;
        }
        let text = doc
            .find("<TEXT>")
            .map(|t| &doc[t + "<TEXT>".len()..])
            .map(|t| t.find("</TEXT>").map_or(t, |e| &t[..e]))
            .unwrap_or("");
        if text.trim_start().starts_with("begin ") {
            continue; // uuencoded binary
        }
        let text = DocText::from_lines(body_to_lines(text, &filename));
        parts.push(SgmlPart { doc_type, filename, text });
    }
    parts
}

/// The value after an SGML tag on its line (`<TYPE>10-K` → `10-K`).
fn sgml_value(doc: &str, tag: &str) -> String {
    doc.find(tag).map(|i| &doc[i + tag.len()..]).and_then(|v| v.lines().next()).unwrap_or("").trim().to_owned()
}

/// 10-K item JSON (`item1`, `item1a`, `item7`, `item7a`) to lines, items in that order.
fn items_to_lines(body: &str, path: &Path) -> Result<Vec<String>, ExtractError> {
    let value: serde_json::Value = serde_json::from_str(body).map_err(|e| ExtractError::json(path, e))?;
    Ok(["item1", "item1a", "item7", "item7a"]
        .iter()
        .filter_map(|k| value.get(k).and_then(|v| v.as_str()))
        .flat_map(text_to_lines)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUBMISSION: &str = "<SEC-DOCUMENT>0000000000-24-000001.txt : 20240101\n<SEC-HEADER>\nACCESSION NUMBER: 0000000000-24-000001\n</SEC-HEADER>\n\
        <DOCUMENT>\n<TYPE>8-K\n<SEQUENCE>1\n<FILENAME>d1.htm\n<TEXT>\n<html><body><p>We opened a plant.</p></body></html>\n</TEXT>\n</DOCUMENT>\n\
        <DOCUMENT>\n<TYPE>GRAPHIC\n<SEQUENCE>2\n<FILENAME>g.jpg\n<TEXT>\nbegin 644 g.jpg\nM(&\n</TEXT>\n</DOCUMENT>\n\
        <DOCUMENT>\n<TYPE>EX-21.1\n<SEQUENCE>3\n<FILENAME>ex21.txt\n<TEXT>\nSubsidiaries\nFoo LLC    Delaware\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n";

    #[test]
    fn a_full_submission_splits_into_prose_documents() {
        let parts = split_submission(SUBMISSION);
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[0].doc_type.as_str(), parts[0].filename.as_str()), ("8-K", "d1.htm"));
        assert_eq!(parts[0].text.lines, vec!["We opened a plant."]);
        assert_eq!(parts[1].doc_type, "EX-21.1");
        assert_eq!(parts[1].text.lines, vec!["Subsidiaries Foo LLC Delaware"]);
        assert!(is_sgml(SUBMISSION));
    }

    #[test]
    fn verbatim_check_refuses_a_quote_that_is_not_in_the_text() {
        let doc = DocText::from_lines(vec!["We opened  a plant in Ohio.".into(), "It employs 300 people.".into()]);
        assert!(doc.contains_verbatim("We opened a plant in Ohio. It employs"));
        assert!(!doc.contains_verbatim("We opened a plant in Texas."));
        assert!(!doc.contains_verbatim("We  opened a plant"), "quotes must themselves be normalised");
        assert!(!doc.contains_verbatim(""));
    }

    #[test]
    fn item_json_yields_lines_in_item_order() {
        let json = r#"{"item7":"MD&A text.","item1":"Business\n\ntext.","cik":"1"}"#;
        let lines = items_to_lines(json, Path::new("x.json")).unwrap_or_default();
        assert_eq!(lines, vec!["Business", "text.", "MD&A text."]);
    }
}
