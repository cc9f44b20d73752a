//! The temporal engine (`--mode temporal`): the same six workflow types on a Temporal cluster
//! reached over mutual TLS. Workflows (`workflow_types`, `driver`) run the same definitions as
//! the demo engine, as deterministic Temporal workflow code; activities (`activities`) run on two
//! task queues — the appliance's (what touches its redb) and the compute queue (model calls and
//! company data), which `gtms worker` processes on other machines can serve too (`runner`).
//! The API's workflow id is the Temporal workflow id; state for the API comes from the `record`
//! query and from visibility (`list`); approvals are the `decide` update (validated: 409 when no
//! gate is pending) — the `approval` signal does the same for other Temporal clients.
//! `connection` keeps `temporal: connected|disconnected` true; while the cluster is unreachable
//! starts and decisions answer 503 at once and reads say the engine is unavailable.

mod activities;
pub mod connection;
mod driver;
mod messages;
pub mod runner;
mod workflow_types;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde_json::Value;
use temporalio_client::errors::{
    WorkflowInteractionError, WorkflowQueryError, WorkflowStartError, WorkflowUpdateError,
};
use temporalio_client::{
    Client, WorkflowExecuteUpdateOptions, WorkflowExecutionStatus, WorkflowIdConflictPolicy, WorkflowIdReusePolicy,
    WorkflowListOptions, WorkflowQueryOptions, WorkflowSignalOptions, WorkflowStartOptions,
};
use temporalio_common::MemoValues;

pub use connection::Health;
use driver::clock_ms;
pub use messages::RunSettings;
use messages::{DecisionInput, StartInput};

use super::engine::{ApprovalSignal, Engine, EngineError, NewWorkflow};
use super::transitions::CancelRequest;
use crate::clock::SharedClock;
use crate::domain::{WorkflowStatus, WorkflowType};
use crate::store::WorkflowRecord;

/// Longest a query, update or visibility page may take before the engine says it is unavailable.
const RPC_TIMEOUT: Duration = Duration::from_secs(10);

pub struct TemporalEngine {
    /// Set once the first connection succeeded.
    client: Arc<OnceLock<Client>>,
    health: Health,
    settings: RunSettings,
    /// Stamps the record a start answers with (the workflow's own times are Temporal's).
    clock: SharedClock,
}

impl TemporalEngine {
    pub fn new(client: Arc<OnceLock<Client>>, health: Health, settings: RunSettings, clock: SharedClock) -> Self {
        Self { client, health, settings, clock }
    }

    /// The client, when the cluster is reachable; otherwise the 503 the API answers.
    fn client(&self) -> Result<&Client, EngineError> {
        match self.client.get() {
            Some(client) if self.health.connected() => Ok(client),
            _ => Err(unavailable("the Temporal cluster is unreachable")),
        }
    }

    /// A handle for queries, updates and signals. Those name only the workflow id and the
    /// handler, and every type registers the same handlers, so one typed handle serves all.
    fn handle(
        &self,
        id: &str,
    ) -> Result<temporalio_client::WorkflowHandle<Client, workflow_types::ClientOnboarding>, EngineError> {
        Ok(self.client()?.get_workflow_handle::<workflow_types::ClientOnboarding>(id))
    }

    async fn query(&self, id: &str) -> Result<Option<WorkflowRecord>, EngineError> {
        let handle = self.handle(id)?;
        let query = handle.query(workflow_types::ClientOnboarding::record, (), WorkflowQueryOptions::default());
        match tokio::time::timeout(RPC_TIMEOUT, query).await {
            Err(_) => Err(unavailable("the Temporal query timed out")),
            Ok(Ok(record)) => Ok(Some(record)),
            Ok(Err(WorkflowQueryError::NotFound(_))) => Ok(None),
            Ok(Err(e)) => Err(unavailable(&format!("the Temporal query failed: {e}"))),
        }
    }

    async fn start_typed(&self, new: NewWorkflow) -> Result<WorkflowRecord, EngineError> {
        let client = self.client()?;
        let input = StartInput {
            worker: new.worker.clone(),
            params: new.params.clone(),
            parent: new.parent.clone(),
            settings: self.settings.clone(),
        };
        let mut memo = MemoValues::new();
        memo.insert("worker", new.worker.clone());
        memo.insert("params", new.params.to_text());
        let options = WorkflowStartOptions::new(self.settings.appliance_queue.clone(), new.id.clone())
            .id_reuse_policy(WorkflowIdReusePolicy::RejectDuplicate)
            .id_conflict_policy(WorkflowIdConflictPolicy::Fail)
            .memo(memo)
            .static_summary(format!("{} for worker {}", new.kind(), new.worker))
            .build();
        let started = workflow_types::with_workflow_type!(new.kind(), T => {
            client.start_workflow(T::run, input, options).await.map(|_| ())
        });
        match started {
            Ok(()) => Ok(initial_record(&new, self.clock.now_ms())),
            Err(WorkflowStartError::AlreadyStarted { .. }) => Err(EngineError::Exists(new.id)),
            Err(e) => Err(unavailable(&format!("Temporal refused the start: {e}"))),
        }
    }

    async fn decide(&self, id: &str, signal: ApprovalSignal) -> Result<WorkflowRecord, EngineError> {
        let handle = self.handle(id)?;
        let update = handle.execute_update(
            workflow_types::ClientOnboarding::decide,
            DecisionInput::from(signal),
            WorkflowExecuteUpdateOptions::default(),
        );
        match tokio::time::timeout(RPC_TIMEOUT, update).await {
            Err(_) => Err(unavailable("the Temporal update timed out")),
            Ok(Ok(record)) => Ok(record),
            Ok(Err(WorkflowUpdateError::NotFound(_))) => Err(self.missing_or_closed(id).await),
            // Refused by the validator (no gate pending), or the workflow already closed.
            Ok(Err(WorkflowUpdateError::Failed(_))) => Err(EngineError::NothingPending(id.to_owned())),
            Ok(Err(WorkflowUpdateError::Rpc(status))) if status.code() == temporalio_client::tonic::Code::NotFound => {
                Err(self.missing_or_closed(id).await)
            }
            Ok(Err(e)) => Err(unavailable(&format!("the Temporal update failed: {e}"))),
        }
    }

    /// The `cancel` update: the workflow takes the request at once (it ends at its next
    /// boundary — at once when parked at a gate or a pause, after its current activity
    /// otherwise); an execution that already closed has ended (409).
    async fn cancel_typed(&self, id: &str, request: CancelRequest) -> Result<WorkflowRecord, EngineError> {
        let handle = self.handle(id)?;
        let update = handle.execute_update(
            workflow_types::ClientOnboarding::cancel,
            request,
            WorkflowExecuteUpdateOptions::default(),
        );
        let closed = |e: EngineError| match e {
            EngineError::NothingPending(id) => EngineError::Ended(id),
            other => other,
        };
        match tokio::time::timeout(RPC_TIMEOUT, update).await {
            Err(_) => Err(unavailable("the Temporal update timed out")),
            Ok(Ok(record)) => Ok(record),
            Ok(Err(WorkflowUpdateError::NotFound(_))) => Err(closed(self.missing_or_closed(id).await)),
            Ok(Err(WorkflowUpdateError::Rpc(status))) if status.code() == temporalio_client::tonic::Code::NotFound => {
                Err(closed(self.missing_or_closed(id).await))
            }
            Ok(Err(e)) => Err(unavailable(&format!("the Temporal update failed: {e}"))),
        }
    }

    /// The `release` signal to each workflow; one that closed meanwhile is skipped.
    async fn release_all(&self, ids: Vec<String>, revision: u64) -> Result<(), EngineError> {
        for id in ids {
            let handle = self.handle(&id)?;
            let signal =
                handle.signal(workflow_types::ClientOnboarding::release, revision, WorkflowSignalOptions::default());
            match tokio::time::timeout(RPC_TIMEOUT, signal).await {
                Err(_) => return Err(unavailable("the Temporal signal timed out")),
                Ok(Ok(())) | Ok(Err(WorkflowInteractionError::NotFound(_))) => {}
                Ok(Err(e)) => return Err(unavailable(&format!("the Temporal signal failed: {e}"))),
            }
        }
        Ok(())
    }

    /// Why an update found no running execution: Temporal answers "not found" for an execution
    /// that already closed too (its approval expired, or it ended), which has nothing pending
    /// (409, as the demo engine answers); only an id it never ran is unknown (404).
    async fn missing_or_closed(&self, id: &str) -> EngineError {
        match self.query(id).await {
            Ok(Some(_)) => EngineError::NothingPending(id.to_owned()),
            Ok(None) => EngineError::NotFound(id.to_owned()),
            Err(e) => e,
        }
    }

    /// Every execution of this appliance's task queue: open ones queried for their live state,
    /// closed ones from visibility and their memo.
    async fn visible(&self) -> Result<Vec<WorkflowRecord>, EngineError> {
        let client = self.client()?;
        let query = format!("TaskQueue = '{}'", self.settings.appliance_queue);
        let mut stream = client.list_workflows(query, WorkflowListOptions::default());
        let mut closed = Vec::new();
        let mut open = Vec::new();
        loop {
            let next = tokio::time::timeout(RPC_TIMEOUT, stream.next()).await;
            let execution = match next {
                Err(_) => return Err(unavailable("the Temporal visibility listing timed out")),
                Ok(None) => break,
                Ok(Some(Err(e))) => return Err(unavailable(&format!("the Temporal visibility listing failed: {e}"))),
                Ok(Some(Ok(execution))) => execution,
            };
            let Some(summary) = from_visibility(&execution) else { continue };
            if execution.status() == WorkflowExecutionStatus::Running {
                open.push(summary);
            } else {
                closed.push(summary);
            }
        }
        let live = futures_util::future::join_all(open.into_iter().map(|summary| async move {
            match self.query(&summary.id).await {
                Ok(Some(record)) => record,
                _ => summary,
            }
        }))
        .await;
        closed.extend(live);
        Ok(closed)
    }
}

fn unavailable(why: &str) -> EngineError {
    EngineError::Unavailable(why.to_owned())
}

fn initial_record(new: &NewWorkflow, now: i64) -> WorkflowRecord {
    WorkflowRecord::started(
        new.id.clone(),
        new.kind(),
        new.worker.clone(),
        new.params.to_text(),
        new.parent.clone(),
        now,
    )
}

/// A workflow as visibility shows it (no steps): type, status, times and the memo's worker,
/// parameters, parent and final status. `None` for executions that are not gtms workflows.
fn from_visibility(e: &temporalio_client::WorkflowExecution) -> Option<WorkflowRecord> {
    let kind = WorkflowType::parse(e.workflow_type())?;
    let memo = e.memo();
    let text = |key: &str| memo.get::<String>(key).ok().flatten();
    let status = match e.status() {
        WorkflowExecutionStatus::Running => WorkflowStatus::Running,
        WorkflowExecutionStatus::Completed => {
            text("status").as_deref().and_then(WorkflowStatus::parse).unwrap_or(WorkflowStatus::Completed)
        }
        WorkflowExecutionStatus::Canceled => WorkflowStatus::Cancelled,
        _ => WorkflowStatus::Failed,
    };
    let created_ms = clock_ms(e.start_time());
    let finished_ms = e.close_time().map(|t| clock_ms(Some(t)));
    let params = text("params").unwrap_or_else(|| Value::Null.to_string());
    let parent = text("parent").or_else(|| e.parent_id().map(str::to_owned));
    let mut record = WorkflowRecord::started(
        e.id().to_owned(),
        kind,
        text("worker").unwrap_or_default(),
        params,
        parent,
        created_ms,
    );
    record.status = status;
    record.updated_ms = finished_ms.unwrap_or(created_ms);
    record.finished_ms = finished_ms;
    Some(record)
}

impl Engine for TemporalEngine {
    fn name(&self) -> &'static str {
        "temporal"
    }

    fn connection(&self) -> &'static str {
        if self.health.connected() { "connected" } else { "disconnected" }
    }

    fn start(&self, new: NewWorkflow) -> BoxFuture<'_, Result<WorkflowRecord, EngineError>> {
        Box::pin(self.start_typed(new))
    }

    fn signal<'a>(&'a self, id: &'a str, signal: ApprovalSignal) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>> {
        Box::pin(self.decide(id, signal))
    }

    fn cancel<'a>(&'a self, id: &'a str, request: CancelRequest) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>> {
        Box::pin(self.cancel_typed(id, request))
    }

    fn release(&self, ids: Vec<String>, revision: u64) -> BoxFuture<'_, Result<(), EngineError>> {
        Box::pin(self.release_all(ids, revision))
    }

    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<WorkflowRecord>, EngineError>> {
        Box::pin(self.query(id))
    }

    fn list(&self) -> BoxFuture<'_, Result<Vec<WorkflowRecord>, EngineError>> {
        Box::pin(self.visible())
    }
}
