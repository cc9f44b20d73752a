//! `gtms-edgar`: the build-time data commands — `extract` (EDGAR documents → the seed's
//! `companies.jsonl`), `fetch` (EDGAR filings into a corpus) and `signals classify` (the
//! classifier on JSONL). Exit codes: 0 done, 1 the command failed, 2 bad usage.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use gtms_edgar::{extract, fetch};

#[derive(Debug, Parser)]
#[command(name = "gtms-edgar", version, about = "Build the gtms company seed from SEC EDGAR filings")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read the EDGAR documents and reference tables under FROM; write companies.jsonl into OUT.
    Extract {
        /// The corpus directory (holds registrants/ and filings/).
        #[arg(long, default_value = "../shared/data")]
        from: PathBuf,
        /// The seed directory to write companies.jsonl into.
        #[arg(long, default_value = "seed")]
        out: PathBuf,
    },
    /// Fetch recent filings of chosen companies from SEC EDGAR into a corpus.
    Fetch(FetchArgs),
    /// The signal classifier.
    Signals {
        #[command(subcommand)]
        command: SignalsCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract { from, out } => {
            extract::run(&from, &out, true).map(|report| println!("{report}")).map_err(|e| e.to_string())
        }
        Command::Fetch(args) => fetch_command(args),
        Command::Signals { command } => signals(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `gtms-edgar fetch` arguments.
#[derive(Debug, clap::Args)]
struct FetchArgs {
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
    /// Only filings filed on or after this day (YYYY-MM-DD): what is newer than the corpus.
    #[arg(long, value_parser = parse_day)]
    since: Option<String>,
    #[arg(long, default_value = "https://data.sec.gov", hide = true)]
    data_base: String,
    #[arg(long, default_value = "https://www.sec.gov", hide = true)]
    archives_base: String,
}

/// A `YYYY-MM-DD` day.
fn parse_day(s: &str) -> Result<String, String> {
    let shaped = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    if shaped { Ok(s.to_owned()) } else { Err(format!("{s:?} is not a day like 2025-01-31")) }
}

fn fetch_command(args: FetchArgs) -> Result<(), String> {
    let opts = fetch::FetchOptions {
        out: args.out,
        companies: args.companies,
        user_agent: args.user_agent,
        data_base: args.data_base.trim_end_matches('/').to_owned(),
        archives_base: args.archives_base.trim_end_matches('/').to_owned(),
        per_form: args.per_form.max(1),
        since: args.since,
        min_interval: Duration::from_millis(100),
        backoff: Duration::from_secs(1),
        show_progress: true,
    };
    let report = fetch::run(&opts).map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(())
}

/// `gtms-edgar signals ...`.
#[derive(Debug, Subcommand)]
enum SignalsCommand {
    /// Read JSONL `{text, form, filed, company?}` on stdin; write one JSONL verdict
    /// `{kind, trigger, score, event_date?}` per line on stdout (`kind: null` = not a signal).
    Classify,
}

fn signals(command: SignalsCommand) -> Result<(), String> {
    match command {
        SignalsCommand::Classify => {
            let stdout = std::io::stdout();
            let out = std::io::BufWriter::new(stdout.lock());
            extract::signals::classify_lines(std::io::stdin().lock(), out).map(|_| ()).map_err(|e| e.to_string())
        }
    }
}
