//! `gtms edgar-extract`: reads the EDGAR documents under a data directory and writes the
//! receipted company extract into `seed/`.

use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Counts printed at the end of an extraction run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ExtractReport {
    pub tracked: usize,
    pub with_statements: usize,
    pub statements: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    pub domains: usize,
    pub dropped_quotes: usize,
}

/// Runs the whole extraction from `from` (the shared data directory) into `out` (a seed dir).
pub fn run(from: &Path, out: &Path, show_progress: bool) -> Result<ExtractReport, ExtractError> {
    let _ = (from, out, show_progress);
    Err(ExtractError::Io(std::io::Error::other("edgar-extract is being built")))
}
