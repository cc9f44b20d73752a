//! The truth rule as a type: a `Receipt` is a verbatim quote plus the EDGAR address of the
//! document it stands in, and a `Claim<T>` cannot exist without one. Deserialisation goes
//! through the same validation as construction, so an unreceipted claim can neither be
//! built nor read back from a seed file.

use serde::{Deserialize, Serialize};

/// Where every receipt must point: the SEC's EDGAR archive.
const EDGAR_PREFIX: &str = "https://www.sec.gov/Archives/edgar/data/";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReceiptError {
    #[error("a receipt needs a non-empty verbatim quote")]
    EmptyQuote,
    #[error("a receipt's url must be an EDGAR archive address, got {0:?}")]
    NotEdgar(String),
    #[error("a receipt needs a form, a filing date (YYYY-MM-DD) and an accession number")]
    MissingFiling,
}

/// Proof of a claim: the sentence as it stands in the filing and where the filing is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "RawReceipt")]
pub struct Receipt {
    /// The sentence exactly as it stands in the filing.
    quote: String,
    /// The EDGAR archive address of the filing document.
    url: String,
    /// The SEC form type (10-K, 10-Q, 8-K, DEF 14A, ...).
    form: String,
    /// Filing date, YYYY-MM-DD.
    filed: String,
    /// SEC accession number of the filing.
    accession: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct RawReceipt {
    quote: String,
    url: String,
    form: String,
    filed: String,
    accession: String,
}

impl TryFrom<RawReceipt> for Receipt {
    type Error = ReceiptError;
    fn try_from(raw: RawReceipt) -> Result<Self, Self::Error> {
        Receipt::new(raw.quote, raw.url, raw.form, raw.filed, raw.accession)
    }
}

impl Receipt {
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
        Ok(Self { quote, url, form, filed, accession })
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
    pub fn accession(&self) -> &str {
        &self.accession
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
