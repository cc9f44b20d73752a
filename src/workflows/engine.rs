//! The engine trait: what the workflow service asks of whichever engine runs the workflows
//! (chosen once at start-up). It mirrors Temporal's model — start a workflow by id, signal it
//! (approvals), query it (describe) and list executions (visibility) — so the demo engine and
//! a Temporal engine are interchangeable behind it; handlers and MCP tools never know which runs.

use futures_util::future::BoxFuture;

use super::listing::Listing;
use super::params::WorkflowParams;
use super::transitions::CancelRequest;
use crate::domain::{Decision, WorkflowType};
use crate::error::{ErrorKind, ServiceError};
use crate::store::{StoreError, WorkflowRecord};

/// A workflow to start (ids are chosen by the service, so retries are idempotent).
#[derive(Debug, Clone)]
pub struct NewWorkflow {
    pub id: String,
    pub worker: String,
    pub params: WorkflowParams,
    pub parent: Option<String>,
}

impl NewWorkflow {
    pub fn kind(&self) -> WorkflowType {
        self.params.kind()
    }
}

/// A human's decision at a workflow's approval gate.
#[derive(Debug, Clone)]
pub struct ApprovalSignal {
    pub decision: Decision,
    pub comment: Option<String>,
    /// Who decided (`user:<sub>`).
    pub by: String,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("no workflow {0}")]
    NotFound(String),
    #[error("workflow {0} already exists")]
    Exists(String),
    #[error("workflow {0} has no approval pending")]
    NothingPending(String),
    #[error("workflow {0} already ended")]
    Ended(String),
    #[error("the workflow engine is unavailable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError for EngineError {
    fn kind(&self) -> ErrorKind {
        match self {
            EngineError::NotFound(_) => ErrorKind::NotFound,
            EngineError::Exists(_) | EngineError::NothingPending(_) | EngineError::Ended(_) => ErrorKind::Conflict,
            EngineError::Unavailable(_) => ErrorKind::Unavailable,
            EngineError::Store(e) => e.kind(),
        }
    }
}

pub trait Engine: Send + Sync {
    /// `demo` or `temporal`.
    fn name(&self) -> &'static str;

    /// What `/api/health` reports as `temporal`: `disabled`, `connected` or `disconnected`.
    fn connection(&self) -> &'static str;

    /// Starts a workflow; `Exists` when its id is taken.
    fn start(&self, new: NewWorkflow) -> BoxFuture<'_, Result<WorkflowRecord, EngineError>>;

    /// Delivers an approval decision; `NothingPending` when the workflow is not at a gate.
    fn signal<'a>(&'a self, id: &'a str, signal: ApprovalSignal) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>>;

    /// Ends a live workflow as cancelled (`transitions::cancel`) at once or, when it is in the
    /// middle of an activity, when that activity ends; answers its state after the request
    /// was taken. `Ended` when it already ended.
    fn cancel<'a>(&'a self, id: &'a str, request: CancelRequest) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>>;

    /// Wakes workflows that may hold for a pause lifted at `revision`: each re-reads the
    /// pauses and goes on when none holds it any more.
    fn release(&self, ids: Vec<String>, revision: u64) -> BoxFuture<'_, Result<(), EngineError>>;

    /// One workflow's state.
    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<WorkflowRecord>, EngineError>>;

    /// Every workflow the engine knows.
    fn list(&self) -> BoxFuture<'_, Result<Vec<WorkflowRecord>, EngineError>>;

    /// What the lists read (pages, live workflows, counts): by default an index over one
    /// `list`; an engine with its own index answers from it.
    fn listing(&self) -> BoxFuture<'_, Result<Listing, EngineError>> {
        Box::pin(async move { Ok(Listing::snapshot(self.list().await?)) })
    }
}
