//! Workers and their durable workflows. Definitions (`definitions`, one file per registered
//! type) decide each next step from a workflow's history (`script`); activities do the I/O
//! (`activities`); an `Engine` runs them — the `demo_engine` inside the binary, durable in redb
//! — chosen once at start-up (`start_engine`). `service` is what the HTTP routes and MCP tools
//! call: starts with parameter checks, approvals, workflow and coordinator-run views, and the
//! workers with their derived status. Knows nothing of HTTP.

pub mod activities;
mod announce;
pub mod catalog;
pub mod definitions;
pub mod demo_engine;
pub mod engine;
pub mod script;
pub mod service;
pub mod views;

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

pub use engine::{ApprovalSignal, Engine, EngineError, NewWorkflow};
pub use script::SlaTimers;
pub use service::{StartRequest, WorkflowError, Workflows};

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

/// Starts the demo engine over the state's store, model router and company data, and its
/// notification delivery; both stop with `shutdown`.
pub async fn start_engine(
    state: &crate::state::AppState,
    shutdown: CancellationToken,
) -> Result<Workflows, EngineError> {
    let config = state.config();
    let sink: Option<Arc<dyn crate::notify::Notifier>> = match &config.workflows.notify_webhook_url {
        Some(url) => Some(Arc::new(crate::notify::Webhook::new(url.clone()).map_err(EngineError::Unavailable)?)),
        None => None,
    };
    let notifications = crate::notify::Notifications::new(state.store().clone(), sink);
    tokio::spawn(notifications.clone().run(shutdown.clone()));
    let voice =
        crate::voice::DemoVoice::seeded().map_err(|e| EngineError::Unavailable(format!("call transcripts: {e}")))?;
    let activities = activities::Activities {
        store: state.store().clone(),
        llm: Arc::clone(state.llm()),
        directory: Arc::clone(state.directory()),
        voice: Arc::new(voice),
        notifications: notifications.clone(),
    };
    let engine =
        demo_engine::DemoEngine::start(state.store().clone(), activities, config.workflows.clone(), shutdown).await?;
    Ok(Workflows::new(Arc::new(engine), state.store().clone(), notifications))
}
