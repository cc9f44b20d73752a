//! The command line: `serve`, `status`, `edgar-extract` (more commands join as features
//! land). Usage errors print one line and exit 2; runtime errors print one line and exit 1.

mod backup;
mod docs;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::admin::{self, AdminReply, AdminRequest};
use crate::config::{Config, ConfigError, Layer};
use crate::state::AppState;
use crate::store::Store;
use crate::{app, companies, telemetry};

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
    /// Regenerate the demo workspace (seed/demo-workspace.json) from the embedded company data.
    DemoGenerate {
        #[arg(long, default_value = "seed/demo-workspace.json")]
        out: PathBuf,
    },
    /// Build the receipted company extract (seed/companies.jsonl) from EDGAR documents.
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
    EdgarExtract {
        /// The shared data directory (registrants/, reference/, filings/, executives/).
        #[arg(long)]
        from: PathBuf,
        /// The seed directory to write into.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
enum KeysAction {
    /// Issue a key for a tenant and print it once.
    Create {
        #[arg(long)]
        tenant: String,
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
        #[arg(long, value_parser = ["admin", "viewer"])]
        role: String,
        #[arg(long)]
        name: String,
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
            eprintln!("gtms: {}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gtms: {message}");
            ExitCode::FAILURE
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve(args) => {
            let flags = Layer {
                listen: args.listen,
                tls_cert: args.tls_cert,
                tls_key: args.tls_key,
                mode: args.mode,
                log_format: args.log_format,
                ..args.data.layer()
            };
            let config = load_config(args.data.config.as_ref(), flags).map_err(|e| e.to_string())?;
            telemetry::init(config.log_format, &config.log_level);
            tracing::debug!(?config, "configuration");
            runtime()?.block_on(app::run(config)).map_err(|e| e.to_string())
        }
        Command::Status(args) => {
            let config = load_config(args.config.as_ref(), args.layer()).map_err(|e| e.to_string())?;
            let reply = runtime()?.block_on(admin_command(&config, AdminRequest::Status, false))?;
            print_reply(reply)
        }
        Command::Keys { data, action } => {
            let (request, json) = match action {
                KeysAction::Create { tenant, name } => (AdminRequest::KeysCreate { tenant, name }, false),
                KeysAction::List { json } => (AdminRequest::KeysList, json),
                KeysAction::Revoke { id } => (AdminRequest::KeysRevoke { id }, false),
            };
            data_command(&data, request, json)
        }
        Command::Invites { data, action } => {
            let (request, json) = match action {
                InvitesAction::Create { role, name } => (AdminRequest::InvitesCreate { role, name }, false),
                InvitesAction::List { json } => (AdminRequest::InvitesList, json),
                InvitesAction::Revoke { id } => (AdminRequest::InvitesRevoke { id }, false),
            };
            data_command(&data, request, json)
        }
        Command::DemoGenerate { out } => {
            let assets = crate::companies::assets::AssetTable::embedded();
            let registry = crate::companies::assets::registry_json().unwrap_or_default();
            let dir = crate::companies::directory::Directory::build(&registry, &assets).map_err(|e| e.to_string())?;
            let n = crate::demo::write_generated(&dir, &out).map_err(|e| e.to_string())?;
            println!("demo-generate: {n} deals in {}", out.display());
            Ok(())
        }
        Command::Ingest { seed, out, base_url } => {
            let started = std::time::Instant::now();
            let r = companies::ingest::run(&seed, &out, &base_url).map_err(|e| e.to_string())?;
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
        Command::ExportStatic { dir } => {
            let n = companies::export::export_static(&dir).map_err(|e| e.to_string())?;
            println!("export-static: {n} files (each with .gz and .br) in {}", dir.display());
            Ok(())
        }
        Command::Backup(args) => backup::backup(args),
        Command::Restore(args) => backup::restore(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
        Command::EdgarExtract { from, out } => {
            let report = companies::extract::run(&from, &out, true).map_err(|e| e.to_string())?;
            println!("{report}");
            Ok(())
        }
    }
}

/// Sends `request` to the running server, or, when none runs and `offline` allows it,
/// opens the data file directly and runs the same command in this process.
async fn admin_command(config: &Config, request: AdminRequest, offline: bool) -> Result<AdminReply, String> {
    let socket = admin::socket_path(&config.data);
    match admin::client::send(&socket, &request).await {
        Ok(reply) => Ok(reply),
        Err(admin::client::ClientError::NotRunning) if offline => {
            let store = Store::open(&config.data).map_err(|e| e.to_string())?;
            let state = AppState::new(config.clone(), store).await.map_err(|e| e.to_string())?;
            Ok(admin::execute(&state, request).await)
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Runs a data command (server running or not) and prints its reply, as JSON when asked.
fn data_command(data: &DataArgs, request: AdminRequest, json: bool) -> Result<(), String> {
    let config = load_config(data.config.as_ref(), data.layer()).map_err(|e| e.to_string())?;
    let reply = runtime()?.block_on(admin_command(&config, request, true))?;
    if json && reply.ok {
        println!("{}", reply.data);
        return Ok(());
    }
    print_reply(reply)
}

fn print_reply(reply: AdminReply) -> Result<(), String> {
    if reply.ok {
        println!("{}", reply.message);
        Ok(())
    } else {
        Err(reply.message)
    }
}
