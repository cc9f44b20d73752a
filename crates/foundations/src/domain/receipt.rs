//! The truth rule as a type: a `Receipt` is a verbatim quote plus the address of the document it
//! stands in — an SEC filing in EDGAR, or a press release the company itself issued (DESIGN.md,
//! "Truth rule") — and a `Claim<T>` cannot exist without one. Deserialisation goes through the
//! same validation as construction, so an unreceipted claim can neither be built nor read back
//! from a seed file.

use serde::{Deserialize, Serialize};

/// Where every EDGAR receipt must point: the SEC's EDGAR archive.
const EDGAR_PREFIX: &str = "https://www.sec.gov/Archives/edgar/data/";
/// The `form` of every press-release receipt.
pub const PRESS_RELEASE_FORM: &str = "press release";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReceiptError {
    #[error("a receipt needs a non-empty verbatim quote")]
    EmptyQuote,
    #[error("a receipt's url must be an EDGAR archive address, got {0:?}")]
    NotEdgar(String),
    #[error("a receipt needs a form, a filing date (YYYY-MM-DD) and an accession number")]
    MissingFiling,
    #[error(
        "a press release's receipt needs its own https address, its publication date (YYYY-MM-DD), form \"press release\" and no accession"
    )]
    BadPressRelease,
}

/// The kind of record a receipt points at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An SEC filing in EDGAR (`url` its archive address, `accession` set).
    #[default]
    Edgar,
    /// A press release the company itself issued (`url` its own address, `filed` its
    /// publication date, `form` "press release", no accession).
    PressRelease,
}

/// Proof of a claim: the sentence as it stands in the document and where the document is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "RawReceipt")]
pub struct Receipt {
    /// `edgar` or `press_release`.
    source: Source,
    /// The sentence exactly as it stands in the document.
    quote: String,
    /// The document's address: its EDGAR archive address, or the press release's own.
    url: String,
    /// The SEC form type (10-K, 10-Q, 8-K, DEF 14A, ...), or "press release".
    form: String,
    /// Filing (or publication) date, YYYY-MM-DD.
    filed: String,
    /// SEC accession number of the filing; null for a press release.
    accession: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct RawReceipt {
    /// Absent in seeds written before press releases: `edgar`.
    #[serde(default)]
    source: Source,
    quote: String,
    url: String,
    form: String,
    filed: String,
    accession: Option<String>,
}

impl TryFrom<RawReceipt> for Receipt {
    type Error = ReceiptError;
    fn try_from(raw: RawReceipt) -> Result<Self, Self::Error> {
        match (raw.source, raw.accession) {
            (Source::Edgar, Some(accession)) => Receipt::new(raw.quote, raw.url, raw.form, raw.filed, accession),
            (Source::Edgar, None) => Err(ReceiptError::MissingFiling),
            (Source::PressRelease, None) if raw.form == PRESS_RELEASE_FORM => {
                Receipt::press_release(raw.quote, raw.url, raw.filed)
            }
            (Source::PressRelease, _) => Err(ReceiptError::BadPressRelease),
        }
    }
}

impl Receipt {
    /// A receipt from an SEC filing.
    pub fn new(
        quote: impl Into<String>,
        url: impl Into<String>,
        form: impl Into<String>,
        filed: impl Into<String>,
        accession: impl Into<String>,
    ) -> Result<Self, ReceiptError> {
        let (quote, url, form, filed, accession) =
            (quote.into(), url.into(), form.into(), filed.into(), accession.into());
        if quote.trim().is_empty() {
            return Err(ReceiptError::EmptyQuote);
        }
        if !url.starts_with(EDGAR_PREFIX) || url.len() <= EDGAR_PREFIX.len() {
            return Err(ReceiptError::NotEdgar(url));
        }
        if form.is_empty() || !is_iso_date(&filed) || accession.is_empty() {
            return Err(ReceiptError::MissingFiling);
        }
        Ok(Self { source: Source::Edgar, quote, url, form, filed, accession: Some(accession) })
    }

    /// A receipt from a press release the company issued, at `url`, published on `published`.
    pub fn press_release(
        quote: impl Into<String>,
        url: impl Into<String>,
        published: impl Into<String>,
    ) -> Result<Self, ReceiptError> {
        let (quote, url, filed) = (quote.into(), url.into(), published.into());
        if quote.trim().is_empty() {
            return Err(ReceiptError::EmptyQuote);
        }
        let host = url.strip_prefix("https://").map(|rest| rest.split('/').next().unwrap_or_default());
        if !host.is_some_and(|h| h.contains('.') && !h.contains(char::is_whitespace)) || !is_iso_date(&filed) {
            return Err(ReceiptError::BadPressRelease);
        }
        Ok(Self { source: Source::PressRelease, quote, url, form: PRESS_RELEASE_FORM.into(), filed, accession: None })
    }

    pub fn source(&self) -> Source {
        self.source
    }
    pub fn quote(&self) -> &str {
        &self.quote
    }
    pub fn url(&self) -> &str {
        &self.url
    }
    pub fn form(&self) -> &str {
        &self.form
    }
    pub fn filed(&self) -> &str {
        &self.filed
    }
    /// The SEC accession number; none for a press release.
    pub fn accession(&self) -> Option<&str> {
        self.accession.as_deref()
    }
    /// The document in words, for a link to it: "10-K filing" or "press release".
    pub fn document(&self) -> String {
        match self.source {
            Source::Edgar => format!("{} filing", self.form),
            Source::PressRelease => PRESS_RELEASE_FORM.to_owned(),
        }
    }
}

fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// A value that is only ever held together with its receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Claim<T> {
    #[serde(flatten)]
    value: T,
    receipt: Receipt,
}

impl<T> Claim<T> {
    pub fn new(value: T, receipt: Receipt) -> Self {
        Self { value, receipt }
    }
    pub fn value(&self) -> &T {
        &self.value
    }
    pub fn receipt(&self) -> &Receipt {
        &self.receipt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Result<Receipt, ReceiptError> {
        Receipt::new(
            "We sell phones.",
            "https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/aapl-20230930.htm",
            "10-K",
            "2023-11-03",
            "0000320193-23-000106",
        )
    }

    #[test]
    fn a_complete_receipt_is_accepted() {
        assert!(ok().is_ok());
    }

    #[test]
    fn a_receipt_without_quote_or_edgar_url_is_refused() {
        let empty = Receipt::new(" ", "https://www.sec.gov/Archives/edgar/data/1/x", "10-K", "2023-01-01", "a");
        assert_eq!(empty, Err(ReceiptError::EmptyQuote));
        let foreign = Receipt::new("q", "https://example.com/x", "10-K", "2023-01-01", "a");
        assert!(matches!(foreign, Err(ReceiptError::NotEdgar(_))));
        let undated = Receipt::new("q", "https://www.sec.gov/Archives/edgar/data/1/x", "10-K", "", "a");
        assert_eq!(undated, Err(ReceiptError::MissingFiling));
    }

    #[test]
    fn receipts_name_their_source_and_a_press_release_has_its_own_address_and_no_accession() {
        let edgar = serde_json::to_value(ok().expect("receipt")).expect("json");
        assert_eq!(
            (edgar["source"].as_str(), edgar["accession"].as_str()),
            (Some("edgar"), Some("0000320193-23-000106"))
        );
        let old = r#"{"quote":"q","url":"https://www.sec.gov/Archives/edgar/data/1/x","form":"8-K","filed":"2024-01-02","accession":"a"}"#;
        assert_eq!(serde_json::from_str::<Receipt>(old).map(|r| r.source()).ok(), Some(Source::Edgar));
        let release =
            Receipt::press_release("We opened a plant.", "https://investors.example.com/news/1", "2025-03-04");
        let release = serde_json::to_value(release.expect("release")).expect("json");
        assert_eq!(release["source"], "press_release");
        assert_eq!(ok().map(|r| r.document()).ok().as_deref(), Some("10-K filing"));
        let document = Receipt::press_release("q", "https://a.com/x", "2025-01-01").map(|r| r.document());
        assert_eq!(document.ok().as_deref(), Some("press release"));
        assert_eq!((release["form"].as_str(), release["accession"].is_null()), (Some("press release"), true));
        assert_eq!(
            serde_json::from_value::<Receipt>(release).map(|r| r.form().to_owned()).ok().as_deref(),
            Some("press release")
        );
        for (url, date) in
            [("http://example.com/x", "2025-03-04"), ("https://", "2025-03-04"), ("https://example.com/x", "2025")]
        {
            assert_eq!(Receipt::press_release("q", url, date), Err(ReceiptError::BadPressRelease), "{url} {date}");
        }
        let with_accession = r#"{"source":"press_release","quote":"q","url":"https://a.com/x","form":"press release","filed":"2025-01-01","accession":"a"}"#;
        assert!(serde_json::from_str::<Receipt>(with_accession).is_err());
        let edgar_without = r#"{"source":"edgar","quote":"q","url":"https://www.sec.gov/Archives/edgar/data/1/x","form":"8-K","filed":"2024-01-02","accession":null}"#;
        assert!(serde_json::from_str::<Receipt>(edgar_without).is_err());
    }

    #[test]
    fn deserialising_an_unreceipted_claim_fails() {
        let json = r#"{"name":"X","receipt":{"quote":"","url":"u","form":"f","filed":"2020-01-01","accession":"a"}}"#;
        #[derive(Debug, Deserialize)]
        struct Named {
            #[allow(dead_code)]
            name: String,
        }
        assert!(serde_json::from_str::<Claim<Named>>(json).is_err());
        let missing = r#"{"name":"X"}"#;
        assert!(serde_json::from_str::<Claim<Named>>(missing).is_err());
    }
}
