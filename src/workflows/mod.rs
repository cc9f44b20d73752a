//! Workers and their durable workflows. Definitions (`definitions`, one file per registered
//! type) decide each next step from a workflow's history (`script`); activities do the I/O
//! (`activities`); an `Engine` runs them — the `demo_engine` inside the binary, durable in redb
//! — chosen once at start-up (`start_engine`). `service` is what the HTTP routes and MCP tools
//! call: starts with parameter checks, approvals, workflow and coordinator-run views, and the
//! workers with their derived status. Knows nothing of HTTP.

pub mod activities;
mod announce;
pub mod binding;
pub mod budget_gate;
pub mod catalog;
pub mod controls;
pub mod definitions;
pub mod demo_engine;
pub mod engine;
pub mod listing;
pub mod params;
pub mod script;
pub mod service;
pub mod temporal_engine;
pub mod transitions;
pub mod views;

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use engine::{ApprovalSignal, Engine, EngineError, NewWorkflow};
pub use params::{ParamError, WorkflowParams};
pub use script::Deadlines;
pub use service::{StartBody, StartRequest, WorkflowError, Workflows};

use crate::config::Mode;
use crate::domain::WorkflowStatus;
use crate::store::{RunRecord, RunStatus, WorkflowRecord};

/// The run-ledger row of a workflow (metrics read the ledger).
pub fn ledger_row(w: &WorkflowRecord) -> RunRecord {
    let status = match w.status {
        WorkflowStatus::Running => RunStatus::Running,
        WorkflowStatus::Waiting => RunStatus::Waiting,
        WorkflowStatus::Completed => RunStatus::Completed,
        WorkflowStatus::Failed => RunStatus::Failed,
        WorkflowStatus::Cancelled => RunStatus::Cancelled,
    };
    RunRecord {
        id: w.id.clone(),
        worker: w.worker.clone(),
        workflow_type: w.kind.as_str().to_owned(),
        started_at: w.created_ms / 1000,
        ended_at: w.finished_ms.map(|ms| ms / 1000),
        status,
    }
}

/// What an engine is built over (`AppState` builds these first, then the engine).
#[derive(Clone, Copy)]
pub struct EngineParts<'a> {
    pub config: &'a crate::config::Config,
    pub store: &'a crate::store::Store,
    pub llm: &'a Arc<crate::brain::Llm>,
    pub directory: &'a Arc<crate::companies::directory::Directory>,
}

/// Starts the engine of the configured mode — the demo engine in-process, or the temporal
/// engine (its connection, health probe and workers run in the background, reconnecting by
/// themselves) — over the store, model router and company data, with notification delivery;
/// every task it spawns is in `tasks`, and all of it stops with `shutdown`. The only place that
/// knows which engine runs.
pub async fn start_engine(
    parts: EngineParts<'_>,
    tasks: &TaskTracker,
    shutdown: CancellationToken,
) -> Result<Workflows, EngineError> {
    let EngineParts { config, store, llm, directory } = parts;
    let sink: Option<Arc<dyn crate::notify::Notifier>> = match &config.workflows.notify_webhook_url {
        Some(url) => Some(Arc::new(crate::notify::Webhook::new(url.clone()).map_err(EngineError::Unavailable)?)),
        None => None,
    };
    let notifications = crate::notify::Notifications::new(store.clone(), sink);
    tasks.spawn(notifications.clone().run(shutdown.clone()));
    let activities = activities::Activities {
        compute: compute_activities(llm, directory)?,
        store: store.clone(),
        notifications: notifications.clone(),
        budgets: config.budgets,
    };
    let engine: Arc<dyn Engine> = match config.mode {
        Mode::Demo => Arc::new(
            demo_engine::DemoEngine::start(store.clone(), activities, config.workflows.clone(), tasks, shutdown)
                .await?,
        ),
        Mode::Temporal => Arc::new(start_temporal(
            &config.temporal,
            &config.workflows,
            temporal_engine::runner::Role::Appliance {
                activities: Box::new(activities),
                serve_compute: config.temporal.serve_compute,
            },
            Arc::clone(store.clock()),
            tasks,
            shutdown,
        )?),
    };
    Ok(Workflows::new(engine, store.clone(), notifications))
}

/// The compute activities over the model router, the embedded company data and the seeded
/// call transcripts.
pub fn compute_activities(
    llm: &Arc<crate::brain::Llm>,
    directory: &Arc<crate::companies::directory::Directory>,
) -> Result<activities::Compute, EngineError> {
    let voice =
        crate::voice::DemoVoice::seeded().map_err(|e| EngineError::Unavailable(format!("call transcripts: {e}")))?;
    Ok(activities::Compute { llm: Arc::clone(llm), directory: Arc::clone(directory), voice: Arc::new(voice) })
}

/// Connects to Temporal in the background (with backoff), then probes it and runs the workers
/// of `role`; answers at once with the engine (disconnected until the first connection).
pub fn start_temporal(
    temporal: &crate::config::TemporalSettings,
    workflows: &crate::config::WorkflowSettings,
    role: temporal_engine::runner::Role,
    clock: crate::clock::SharedClock,
    tasks: &TaskTracker,
    shutdown: CancellationToken,
) -> Result<temporal_engine::TemporalEngine, EngineError> {
    let options =
        temporal_engine::connection::options(temporal).map_err(|e| EngineError::Unavailable(e.to_string()))?;
    let client = Arc::new(std::sync::OnceLock::new());
    let health = temporal_engine::Health::default();
    let queues = temporal_engine::runner::Queues {
        appliance: temporal.task_queue.clone(),
        compute: temporal.compute_task_queue.clone(),
        shutdown_grace: std::time::Duration::from_secs(temporal.shutdown_grace_secs),
    };
    let (cell, probe, namespace) = (Arc::clone(&client), health.clone(), temporal.namespace.clone());
    let spawner = tasks.clone();
    tasks.spawn(async move {
        let Some(connected) = temporal_engine::connection::connect(options, &namespace, &shutdown).await else {
            return;
        };
        let _ = cell.set(connected.clone());
        spawner.spawn(probe.watch(connected.clone(), shutdown.clone()));
        match temporal_engine::runner::spawn(connected, role, queues, shutdown) {
            // Held until the workers drained their activities after shutdown, so whoever waits
            // on `tasks` (the process's exit) waits for that too.
            Ok(workers) => {
                if !matches!(tokio::task::spawn_blocking(move || workers.join()).await, Ok(Ok(()))) {
                    tracing::error!("temporal: the worker thread ended with a panic");
                }
            }
            Err(e) => tracing::error!(error = %e, "temporal: cannot start the worker thread"),
        }
    });
    let settings = temporal_engine::RunSettings::new(workflows, &temporal.task_queue, &temporal.compute_task_queue);
    Ok(temporal_engine::TemporalEngine::new(client, health, settings, clock))
}
