//! `gtms backup OUT` and `gtms restore IN --data FILE`. A backup goes through the admin
//! channel when a server runs (it copies from its live database) and opens the file directly
//! when none does; a restore is offline only and refuses a data file any process holds.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{CliError, DataArgs};
use crate::admin::{self, AdminRequest, client::ClientError};
use crate::backup;
use crate::clock::{Clock, SystemClock};

/// How long the CLI waits for a running server to finish a backup.
const ONLINE_BACKUP_LIMIT: Duration = Duration::from_secs(6 * 60 * 60);

#[derive(Debug, Args)]
pub(super) struct BackupArgs {
    /// Where to write the copy: a new file (never overwritten) in an existing directory.
    #[arg(value_name = "OUT")]
    out: PathBuf,
    #[command(flatten)]
    data: DataArgs,
}

#[derive(Debug, Args)]
pub(super) struct RestoreArgs {
    /// A backup written by `gtms backup`.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The data file to replace (or create); the server using it must be stopped.
    #[arg(long, value_name = "FILE", required = true)]
    data: PathBuf,
}

pub(super) fn backup(args: BackupArgs) -> Result<(), CliError> {
    let config = super::load_config(args.data.config.as_ref(), args.data.layer()).map_err(CliError::runtime)?;
    let out = std::path::absolute(&args.out).map_err(|e| CliError::Runtime(format!("{}: {e}", args.out.display())))?;
    let socket = admin::socket_path(&config.data);
    super::runtime()?.block_on(async {
        let request = AdminRequest::Backup { out: out.clone() };
        match admin::client::send_within(&socket, &request, ONLINE_BACKUP_LIMIT).await {
            Ok(reply) => super::admin_cmds::print_reply(reply),
            Err(ClientError::NotRunning) => {
                let data = config.data.clone();
                let report = tokio::task::spawn_blocking(move || backup::create_offline(&data, &out))
                    .await
                    .map_err(CliError::runtime)?
                    .map_err(CliError::runtime)?;
                super::say(report.describe("backup (server stopped)"))
            }
            Err(e) => Err(CliError::runtime(e)),
        }
    })
}

pub(super) fn restore(args: RestoreArgs) -> Result<(), CliError> {
    let socket = admin::socket_path(&args.data);
    let runtime = super::runtime()?;
    match runtime.block_on(admin::client::send(&socket, &AdminRequest::Status)) {
        Err(ClientError::NotRunning) => {}
        Ok(_) => return Err(CliError::runtime(backup::BackupError::Running(args.data))),
        Err(e) => {
            return Err(CliError::Runtime(format!(
                "cannot tell whether a server runs on {}: {e}",
                args.data.display()
            )));
        }
    }
    let report = runtime
        .block_on(async {
            let (input, data) = (args.input.clone(), args.data.clone());
            tokio::task::spawn_blocking(move || backup::restore(&input, &data, SystemClock.utc())).await
        })
        .map_err(CliError::runtime)?
        .map_err(CliError::runtime)?;
    runtime.block_on(async {
        let store = crate::store::Store::open(&args.data).map_err(CliError::runtime)?;
        let detail = [("records", report.records.to_string())];
        crate::audit::record_cli(&store, "restore", &args.input.display().to_string(), &detail).await;
        Ok::<_, CliError>(())
    })?;
    let kept = match &report.previous {
        Some(p) => format!("; the previous data file is kept as {}", p.display()),
        None => String::new(),
    };
    super::say(format_args!(
        "restore: {} verified ({} tables, {} records) and restored as {}{kept}",
        args.input.display(),
        report.tables.0.len(),
        report.records,
        report.data.display()
    ))
}
