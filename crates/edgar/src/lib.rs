//! The build-time EDGAR pipeline: `fetch` downloads filings from SEC EDGAR into a corpus,
//! `extract` reads a corpus and writes the receipted company extract (`seed/companies.jsonl`,
//! in the seed format of `gtms_companies::seed`), and `extract::signals` is the signal
//! classifier. Nothing here runs while the appliance serves: the `gtms` binary reads the seed
//! (through the keyless files ingest builds from it) and never imports this crate.

pub mod extract;
pub mod fetch;
