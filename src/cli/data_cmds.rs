//! The data commands: `ingest` (seed → the keyless files embedded at the next build),
//! `export-static` (the embedded files for a web server or CDN) and `demo-generate` (the demo
//! workspace). The seed itself is built by `gtms-edgar` (crates/edgar).

use std::path::Path;

use super::CliError;
use crate::companies;
use crate::companies::directory::Directory;

pub(super) fn ingest(seed: &Path, out: &Path, base_url: &str) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let r = companies::ingest::run(seed, out, base_url).map_err(CliError::runtime)?;
    super::say(format_args!(
        "ingest: {} tracked, {} with a page ({} with a fresh signal), {} statements ({} fresh), {} executives, \
         {} subsidiaries, {} domains; {} files in {} ({:.1}s)\n\
         cards by signal source: {} EDGAR only, {} press releases only, {} both, {} no signal; \
         {} with a signal since {}, {} with a family",
        r.tracked,
        r.with_page,
        r.fresh_cards,
        r.statements,
        r.fresh_signals,
        r.executives,
        r.subsidiaries,
        r.domains,
        r.files,
        out.display(),
        started.elapsed().as_secs_f64(),
        r.coverage.edgar_only,
        r.coverage.press_only,
        r.coverage.both,
        r.coverage.no_signal,
        r.coverage.recent,
        r.coverage.recent_since,
        r.coverage.with_family,
    ))
}

pub(super) fn export_static(dir: &Path) -> Result<(), CliError> {
    let n = companies::export::export_static(dir).map_err(CliError::runtime)?;
    super::say(format_args!("export-static: {n} files (each with .gz and .br) in {}", dir.display()))
}

pub(super) fn demo_generate(out: &Path) -> Result<(), CliError> {
    let dir = Directory::embedded().map_err(CliError::runtime)?;
    let n = crate::demo::write_generated(&dir, out).map_err(CliError::runtime)?;
    super::say(format_args!("demo-generate: {n} deals in {}", out.display()))
}
