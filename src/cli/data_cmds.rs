//! The data-building commands: `edgar-extract` (EDGAR documents → `seed/companies.jsonl`),
//! `ingest` (seed → the keyless files embedded at the next build), `export-static` (the
//! embedded files for a web server or CDN), `demo-generate` (the demo workspace),
//! `edgar-fetch` (EDGAR filings into a corpus) and `signals` (the classifier on JSONL). The
//! clap argument types live here: the services they call know nothing of the command line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::CliError;
use crate::companies;
use crate::companies::assets::{AssetTable, registry_json};
use crate::companies::directory::Directory;

pub(super) fn edgar_extract(from: &Path, out: &Path) -> Result<(), CliError> {
    let report = companies::extract::run(from, out, true).map_err(CliError::runtime)?;
    println!("{report}");
    Ok(())
}

pub(super) fn ingest(seed: &Path, out: &Path, base_url: &str) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let r = companies::ingest::run(seed, out, base_url).map_err(CliError::runtime)?;
    println!(
        "ingest: {} tracked, {} with a page, {} statements, {} executives, {} subsidiaries, {} domains; {} files in {} ({:.1}s)",
        r.tracked,
        r.with_page,
        r.statements,
        r.executives,
        r.subsidiaries,
        r.domains,
        r.files,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub(super) fn export_static(dir: &Path) -> Result<(), CliError> {
    let n = companies::export::export_static(dir).map_err(CliError::runtime)?;
    println!("export-static: {n} files (each with .gz and .br) in {}", dir.display());
    Ok(())
}

pub(super) fn demo_generate(out: &Path) -> Result<(), CliError> {
    let assets = AssetTable::embedded();
    let dir = Directory::build(&registry_json().unwrap_or_default(), &assets).map_err(CliError::runtime)?;
    let n = crate::demo::write_generated(&dir, out).map_err(CliError::runtime)?;
    println!("demo-generate: {n} deals in {}", out.display());
    Ok(())
}

/// `gtms edgar-fetch` arguments.
#[derive(Debug, clap::Args)]
pub struct FetchArgs {
    /// Tickers or CIKs to fetch; none = every tracked company.
    companies: Vec<String>,
    /// The corpus directory to fetch into (holds registrants/ and filings/).
    #[arg(long, default_value = "../shared/data")]
    out: PathBuf,
    /// User-Agent with a contact email, as the SEC requires ("Acme Research ops@acme.example").
    #[arg(long, env = "GTMS_EDGAR_USER_AGENT")]
    user_agent: String,
    /// How many of the newest filings of each form (10-K, 10-Q, 8-K, DEF 14A).
    #[arg(long, default_value_t = 2)]
    per_form: usize,
    #[arg(long, default_value = "https://data.sec.gov", hide = true)]
    data_base: String,
    #[arg(long, default_value = "https://www.sec.gov", hide = true)]
    archives_base: String,
}

pub(super) fn edgar_fetch(args: FetchArgs) -> Result<(), CliError> {
    let opts = companies::fetch::FetchOptions {
        out: args.out,
        companies: args.companies,
        user_agent: args.user_agent,
        data_base: args.data_base.trim_end_matches('/').to_owned(),
        archives_base: args.archives_base.trim_end_matches('/').to_owned(),
        per_form: args.per_form.max(1),
        min_interval: Duration::from_millis(100),
        backoff: Duration::from_secs(1),
        show_progress: true,
    };
    let report = companies::fetch::run(&opts).map_err(CliError::runtime)?;
    println!("{report}");
    Ok(())
}

/// `gtms signals ...`.
#[derive(Debug, clap::Subcommand)]
pub enum SignalsCommand {
    /// Read JSONL `{text, form, filed, company?}` on stdin; write one JSONL verdict
    /// `{kind, trigger, score, event_date?}` per line on stdout (`kind: null` = not a signal).
    Classify,
}

pub(super) fn signals(command: SignalsCommand) -> Result<(), CliError> {
    match command {
        SignalsCommand::Classify => {
            let stdout = std::io::stdout();
            let out = std::io::BufWriter::new(stdout.lock());
            companies::extract::signals::classify_lines(std::io::stdin().lock(), out)
                .map(|_| ())
                .map_err(CliError::runtime)
        }
    }
}
