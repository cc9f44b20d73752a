//! The committed company extract (`seed/companies.jsonl`): one JSON object per tracked
//! company, sorted by CIK. Written by `gtms edgar-extract`, read by `gtms ingest`. Every
//! statement, executive and subsidiary is a `Claim`, so a row without receipts cannot be read.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

use crate::domain::{Claim, SignalKind};

/// File name of the extract inside the seed directory.
pub const COMPANIES_FILE: &str = "companies.jsonl";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedCompany {
    /// Ten-digit, zero-padded SEC Central Index Key.
    pub cik: String,
    /// Every ticker of the registrant; the first is the primary one (share classes follow).
    pub tickers: Vec<String>,
    /// `NYSE`, `Nasdaq`, `CBOE` or `OTC`.
    pub exchange: String,
    pub legal_name: String,
    pub sector: Option<String>,
    /// Registrable domain of the company website, lowercase, no scheme.
    pub domain: Option<String>,
    /// Receipted statements the company makes about itself, most informative first.
    pub statements: Vec<Claim<Statement>>,
    pub executives: Vec<Claim<Executive>>,
    pub subsidiaries: Vec<Claim<Subsidiary>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Statement {
    pub kind: SignalKind,
    /// The claim in words; equal to the receipt's quote unless shortened for display.
    pub text: String,
    /// When the event happened or is scheduled, as the sentence states it (`YYYY`,
    /// `YYYY-MM` or `YYYY-MM-DD`); absent when the sentence gives no date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_date: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Executive {
    pub name: String,
    pub title: String,
    /// An officer of the company, or a member of its board only (from the title: a director,
    /// chair or trustee title with no officer word in it).
    #[serde(default)]
    pub role: ExecutiveRole,
    /// Whether the filing that names this person is at most 24 months older than the company's
    /// newest filing we hold; an older one may be out of date, and is served marked so.
    #[serde(default = "yes")]
    pub current: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExecutiveRole {
    #[default]
    Officer,
    Director,
}

impl ExecutiveRole {
    /// The role a title states: board-only titles are directors, every other title an officer.
    pub fn of_title(title: &str) -> Self {
        let t = title.to_lowercase();
        let board = ["director", "chair", "trustee", "board"].iter().any(|w| t.contains(w));
        let officer = [
            "officer",
            "chief",
            "president",
            "ceo",
            "cfo",
            "coo",
            "vice",
            "treasurer",
            "secretary",
            "counsel",
            "controller",
            "executive",
        ]
        .iter()
        .any(|w| t.contains(w));
        if board && !officer { Self::Director } else { Self::Officer }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Officer => "officer",
            Self::Director => "director",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Subsidiary {
    pub name: String,
    /// Jurisdiction of organisation as stated in Exhibit 21, when given.
    pub jurisdiction: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("reading the company extract: {0}")]
    Io(#[from] std::io::Error),
    #[error("company extract line {line}: {source}")]
    Parse { line: usize, source: serde_json::Error },
}

pub fn read_companies(reader: impl BufRead) -> Result<Vec<SeedCompany>, SeedError> {
    let mut out = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let company = serde_json::from_str(&line).map_err(|source| SeedError::Parse { line: i + 1, source })?;
        out.push(company);
    }
    Ok(out)
}

pub fn write_companies(mut writer: impl Write, companies: &[SeedCompany]) -> std::io::Result<()> {
    for company in companies {
        serde_json::to_writer(&mut writer, company)?;
        writer.write_all(b"\n")?;
    }
    writer.flush()
}
