//! `gtms worker`: a stateless Temporal worker for the compute task queue — model calls and
//! company data, no data file — connected with the same `[temporal]` / `GTMS_TEMPORAL_*`
//! settings (mTLS included) as the appliance. Runs until SIGINT or SIGTERM, then stops polling,
//! lets its running activities finish (`[temporal] shutdown_grace_secs`, then they are
//! cancelled) and exits 0; any number of them may run on other machines.

use std::sync::Arc;

use clap::Args;
use tokio_util::sync::CancellationToken;

use super::{CliError, load_config, runtime};
use crate::config::Layer;
use crate::workflows::temporal_engine::runner::Role;

#[derive(Debug, Args)]
pub(super) struct WorkerArgs {
    /// A TOML config file (env GTMS_CONFIG).
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// `human` or `json` log lines [env GTMS_LOG_FORMAT].
    #[arg(long)]
    log_format: Option<String>,
}

pub(super) fn worker(args: WorkerArgs) -> Result<(), CliError> {
    let flags = Layer { mode: Some("temporal".into()), log_format: args.log_format, ..Layer::default() };
    let config = load_config(args.config.as_ref(), flags).map_err(CliError::runtime)?;
    crate::telemetry::init(config.log_format, &config.log_level);
    runtime()?.block_on(async move {
        let directory = crate::companies::directory::Directory::embedded().map_err(CliError::runtime)?;
        let clock = crate::clock::SystemClock::shared();
        let llm = crate::brain::Llm::from_settings(&config.llm, Arc::clone(&clock)).map_err(CliError::runtime)?;
        let compute =
            crate::workflows::compute_activities(&Arc::new(llm), &Arc::new(directory)).map_err(CliError::runtime)?;
        let (tasks, shutdown) = (tokio_util::task::TaskTracker::new(), CancellationToken::new());
        let signals = crate::shutdown::Signals::listen()
            .map_err(|e| CliError::Runtime(format!("cannot listen for signals: {e}")))?;
        let engine = crate::workflows::start_temporal(
            &config.temporal,
            &config.workflows,
            Role::ComputeOnly(compute),
            clock,
            &tasks,
            shutdown.clone(),
        )
        .map_err(CliError::runtime)?;
        tracing::info!(
            address = config.temporal.address.as_deref().unwrap_or_default(),
            queue = %config.temporal.compute_task_queue,
            "gtms worker {} serving the compute task queue",
            crate::state::VERSION
        );
        signals.cancel_on_signal(shutdown.clone()).await;
        drop(engine);
        tasks.close();
        tasks.wait().await;
        Ok(())
    })
}
