//! The command line: one `Command` enum and one function per command, each in the file of
//! its group — `serve` (start the appliance), `admin_cmds` (status, keys, invites: through the
//! admin channel or the data file), `data_cmds` (ingest, export-static,
//! demo-generate). Usage errors print one line and exit 2; runtime errors print one line and
//! exit 1.

mod admin_cmds;
mod backup;
mod data_cmds;
mod docs;
mod serve;
mod worker;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::admin::AuditFormat;
use crate::config::{Config, ConfigError, Layer};
use crate::domain::{Role, TeamId, Tenant};

/// Why a command failed: the one line it prints (after `gtms: `) and its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line cannot be run as written (exit 2): clap's refusals.
    #[error("{0}")]
    Usage(String),
    /// The command ran and failed (exit 1): a bad configuration, a data file in use, a
    /// server that refused, an I/O error.
    #[error("{0}")]
    Runtime(String),
}

impl CliError {
    /// A runtime failure, in the words of its cause.
    pub fn runtime(cause: impl std::fmt::Display) -> Self {
        CliError::Runtime(cause.to_string())
    }

    /// The documented exit code: usage 2, runtime 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Runtime(_) => 1,
        }
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "gtms",
    version,
    about = "Receipted company intelligence and an AI go-to-market workspace, in one binary."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Start the appliance (HTTP API, static company files, admin socket).
    Serve(ServeArgs),
    /// Print the running server's health, version and uptime.
    Status(DataArgs),
    /// Serve the compute task queue of a Temporal cluster (model calls, company data; no data file).
    Worker(worker::WorkerArgs),
    /// Manage API keys of /v1/enrich and MCP (works with the server running or stopped).
    Keys {
        #[command(flatten)]
        data: DataArgs,
        #[command(subcommand)]
        action: KeysAction,
    },
    /// Manage workspace invite codes (works with the server running or stopped).
    Invites {
        #[command(flatten)]
        data: DataArgs,
        #[command(subcommand)]
        action: InvitesAction,
    },
    /// Print the audit log of admin actions, oldest first (works with the server running or
    /// stopped); `gtms audit verify` walks its hash chain.
    #[command(args_conflicts_with_subcommands = true)]
    Audit {
        #[command(flatten)]
        data: DataArgs,
        /// `jsonl` (one record per line, what hashes are computed from) or `csv`.
        #[arg(long, value_enum, default_value_t = AuditFormat::Jsonl)]
        format: AuditFormat,
        #[command(subcommand)]
        action: Option<AuditAction>,
    },
    /// Remove what the demo's simulated team created: its workflows, their ledger rows,
    /// notifications and memory entries (server stopped; nothing a person entered is touched).
    DemoReset(DataArgs),
    /// Regenerate the demo workspace (seed/demo-workspace.json) from the embedded company data.
    DemoGenerate {
        #[arg(long, default_value = "seed/demo-workspace.json")]
        out: PathBuf,
    },
    /// Turn seed/companies.jsonl into the keyless company files (embedded at the next build).
    Ingest {
        /// The seed directory holding companies.jsonl.
        #[arg(long, default_value = "seed")]
        seed: PathBuf,
        /// Where to write (replaced): public/ and internal/ are created inside.
        #[arg(long, default_value = "assets/company")]
        out: PathBuf,
        /// The origin the files name in links (llms.txt, sitemap, MCP hints).
        #[arg(long, default_value = "http://127.0.0.1:3000")]
        base_url: String,
    },
    /// Write the embedded keyless files, with .gz/.br siblings, for any web server or CDN.
    ExportStatic {
        /// Target directory (created if missing).
        dir: PathBuf,
    },
    /// Copy the data to a new file and verify the copy (online through a running server, or offline).
    Backup(backup::BackupArgs),
    /// Verify a backup, then restore it as the data file (server stopped).
    Restore(backup::RestoreArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(docs::CompletionsArgs),
    /// Print the gtms(1) man page, or write every page with --dir.
    Man(docs::ManArgs),
}

fn parse_tenant(s: &str) -> Result<Tenant, String> {
    Tenant::parse(s).map_err(|e| e.to_string())
}

fn parse_team(s: &str) -> Result<TeamId, String> {
    TeamId::parse(s).map_err(|e| e.to_string())
}

fn parse_role(s: &str) -> Result<Role, String> {
    Role::parse(s).ok_or_else(|| format!("{s:?} is not a role (admin or viewer)"))
}

#[derive(Debug, Subcommand)]
enum AuditAction {
    /// Walk the hash chain from the first record; exit 1 naming the first broken link.
    Verify {
        #[command(flatten)]
        data: DataArgs,
    },
}

#[derive(Debug, Subcommand)]
enum KeysAction {
    /// Issue a key for a tenant and print it once.
    Create {
        /// 1 to 64 lowercase letters, digits, '-' or '_'.
        #[arg(long, value_parser = parse_tenant)]
        tenant: Tenant,
        #[arg(long, default_value = "")]
        name: String,
    },
    /// List keys with usage.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key by its id.
    Revoke { id: String },
}

#[derive(Debug, Subcommand)]
enum InvitesAction {
    /// Issue an invite code and print it once.
    Create {
        /// `admin` or `viewer`.
        #[arg(long, value_parser = parse_role)]
        role: Role,
        #[arg(long)]
        name: String,
        /// The user's team id (a-z, 0-9, - and _): the Brain adds `team:<id>` memory to their chats.
        #[arg(long, value_parser = parse_team)]
        team: Option<TeamId>,
    },
    /// List invites.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Revoke an invite by its id and end that user's sessions.
    Revoke { id: String },
}

/// Where the data lives; shared by every command that touches it.
#[derive(Debug, Args)]
struct DataArgs {
    /// The redb data file [default: ./gtms.redb; env GTMS_DATA].
    #[arg(long, value_name = "FILE", global = true)]
    data: Option<PathBuf>,
    /// A TOML config file (env GTMS_CONFIG).
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ServeArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Address to listen on, IP:PORT [default: 127.0.0.1:3000; env GTMS_LISTEN].
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// PEM certificate chain; serves HTTPS on the same port (with --tls-key).
    #[arg(long, value_name = "FILE")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for --tls-cert.
    #[arg(long, value_name = "FILE")]
    tls_key: Option<PathBuf>,
    /// `demo` (in-process workflows) or `temporal` [env GTMS_MODE].
    #[arg(long)]
    mode: Option<String>,
    /// `human` or `json` log lines [env GTMS_LOG_FORMAT].
    #[arg(long)]
    log_format: Option<String>,
}

impl DataArgs {
    fn layer(&self) -> Layer {
        Layer { data: self.data.clone(), ..Layer::default() }
    }
}

/// Defaults, then the config file, then `GTMS_*`, then `flags`.
fn load_config(config_file: Option<&PathBuf>, flags: Layer) -> Result<Config, ConfigError> {
    let env_file = std::env::var_os("GTMS_CONFIG").map(PathBuf::from);
    let file = match config_file.or(env_file.as_ref()) {
        Some(path) => Layer::from_file(path)?,
        None => Layer::default(),
    };
    let env = Layer::from_env(|k| std::env::var(k).ok())?;
    Layer::default().merge(file).merge(env).merge(flags).validate()
}

/// Parses the process arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.to_string();
            let line = rendered.lines().find(|l| !l.trim().is_empty()).unwrap_or("invalid arguments");
            return fail(CliError::Usage(line.trim_start_matches("error: ").to_owned()));
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Prints one line of a command's answer. A reader that stopped reading (`gtms keys create |
/// head -1`) ends the output quietly: what it read is what it wanted, so that is no failure
/// and never a panic.
pub(super) fn say(text: impl std::fmt::Display) -> Result<(), CliError> {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::runtime(e)),
        _ => Ok(()),
    }
}

fn fail(error: CliError) -> ExitCode {
    eprintln!("gtms: {error}");
    ExitCode::from(error.exit_code())
}

/// The blocking pool runs every redb transaction, argon2 and file work. tokio allows 512 threads;
/// past a few per core they add no throughput to redb's CPU-bound transactions, and each new
/// thread keeps a stack and a glibc malloc arena resident for the life of the process (the
/// soak's slow RSS climb was arenas added one burst at a time). Work beyond the bound queues.
fn max_blocking_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (4 * cores).max(8)
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(max_blocking_threads())
        .build()
        .map_err(|e| CliError::Runtime(format!("cannot start the runtime: {e}")))
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Serve(args) => serve::serve(args),
        Command::Status(args) => admin_cmds::status(&args),
        Command::Worker(args) => worker::worker(args),
        Command::Keys { data, action } => admin_cmds::keys(&data, action),
        Command::Invites { data, action } => admin_cmds::invites(&data, action),
        Command::Audit { data, format, action } => admin_cmds::audit(&data, format, action),
        Command::DemoReset(data) => admin_cmds::demo_reset(&data),
        Command::DemoGenerate { out } => data_cmds::demo_generate(&out),
        Command::Ingest { seed, out, base_url } => data_cmds::ingest(&seed, &out, &base_url),
        Command::ExportStatic { dir } => data_cmds::export_static(&dir),
        Command::Backup(args) => backup::backup(args),
        Command::Restore(args) => backup::restore(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
    }
}
