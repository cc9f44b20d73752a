//! The demo engine: a durable workflow engine inside the binary. Every workflow's whole state
//! (parameters, recorded steps, approval gate, retry or child wait, result) is one redb record,
//! written through a group commit after every transition, before anything is announced. A
//! bounded pool of executors (`workflows.executors`) advances ready workflows, one executor per
//! workflow at a time; a definition decides each next step from the record alone (`script`),
//! so after `kill -9` `recover` simply re-reads every live record: running ones continue from
//! their last recorded step (the interrupted activity runs again — activities are idempotent by
//! workflow id + step), gates stay parked, retry and SLA deadlines are re-armed.

mod executor;
mod timers;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::activities::Activities;
use super::engine::{ApprovalSignal, Engine, EngineError, NewWorkflow};
use super::listing::Listing;
use super::transitions::CancelRequest;
use crate::config::WorkflowSettings;
use crate::domain::WorkflowStatus;
use crate::store::{Store, Wait, WorkflowOutcome, WorkflowRecord, WorkflowWrite};
use timers::Timers;

pub struct DemoEngine {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    activities: Activities,
    settings: WorkflowSettings,
    /// Workflows queued or being advanced; `true` when woken again meanwhile.
    scheduled: Mutex<HashMap<String, bool>>,
    executors: Arc<Semaphore>,
    timers: Timers,
    /// The app's tasks: every workflow being advanced is one of them.
    tasks: TaskTracker,
    shutdown: CancellationToken,
}

impl Inner {
    /// The store's clock, in unix milliseconds.
    fn now_ms(&self) -> i64 {
        self.store.now_ms()
    }
}

impl DemoEngine {
    /// Starts the engine and resumes every live workflow of the store.
    pub async fn start(
        store: Store,
        activities: Activities,
        settings: WorkflowSettings,
        tasks: &TaskTracker,
        shutdown: CancellationToken,
    ) -> Result<Self, EngineError> {
        let inner = Arc::new_cyclic(|weak| Inner {
            executors: Arc::new(Semaphore::new(settings.executors)),
            timers: Timers::spawn(weak.clone(), Arc::clone(store.clock()), tasks, shutdown.clone()),
            tasks: tasks.clone(),
            store,
            activities,
            settings,
            scheduled: Mutex::new(HashMap::new()),
            shutdown,
        });
        let resumed = inner.recover().await?;
        if resumed > 0 {
            tracing::info!(resumed, "resumed live workflows");
        }
        Ok(Self { inner })
    }
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool>> {
        self.scheduled.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues workflow `id` to be advanced (once, however often it is woken meanwhile).
    pub fn enqueue(self: &Arc<Self>, id: String) {
        if self.shutdown.is_cancelled() {
            return;
        }
        {
            let mut scheduled = self.lock();
            if let Some(again) = scheduled.get_mut(&id) {
                *again = true;
                return;
            }
            scheduled.insert(id.clone(), false);
        }
        let this = Arc::clone(self);
        self.tasks.spawn(async move { this.drive(id).await });
    }

    /// Advances workflow `id` while it is woken. On shutdown the step in flight gets
    /// `shutdown_grace_secs` to finish and be recorded (`advance` then starts nothing new);
    /// one still running after that is dropped and runs again after the restart.
    async fn drive(self: Arc<Self>, id: String) {
        loop {
            let Ok(_permit) = Arc::clone(&self.executors).acquire_owned().await else { return };
            let grace = std::time::Duration::from_secs(self.settings.shutdown_grace_secs);
            let advance = self.advance(&id);
            tokio::pin!(advance);
            // On shutdown the step in flight keeps running, for the grace period at most.
            let advanced = tokio::select! {
                result = &mut advance => Some(result),
                () = self.shutdown.cancelled() => tokio::time::timeout(grace, &mut advance).await.ok(),
            };
            match advanced {
                None => {
                    tracing::warn!(workflow = %id, grace_secs = grace.as_secs(), "shutdown: the step in flight did not finish within the grace period; it runs again after the restart");
                    return;
                }
                Some(Err(e)) => {
                    tracing::error!(workflow = %id, error = %e, "could not advance a workflow; it stays where it was");
                }
                Some(Ok(())) => {}
            }
            if self.shutdown.is_cancelled() {
                return;
            }
            let mut scheduled = self.lock();
            match scheduled.get_mut(&id) {
                Some(again) if *again => *again = false,
                _ => {
                    scheduled.remove(&id);
                    return;
                }
            }
        }
    }

    /// Records a new workflow and queues it; `Exists` when the id is taken.
    async fn create(self: Arc<Self>, new: NewWorkflow) -> Result<WorkflowRecord, EngineError> {
        let now = self.now_ms();
        let record =
            WorkflowRecord::started(new.id.clone(), new.kind(), new.worker, new.params.to_text(), new.parent, now);
        let Some(saved) = self.save(record, WorkflowStatus::Running).await? else {
            return Err(EngineError::Exists(new.id));
        };
        super::announce::started(&self.store, &saved);
        self.enqueue(saved.id.clone());
        Ok(saved)
    }

    /// Re-arms timers and queues every live workflow, oldest start first; returns how many were
    /// live. The live ones come from the workflow index and only their records are read: reading
    /// every workflow to keep the live ones held all of them at once (100,000 finished workflows:
    /// 70 MB at start, which the allocator then kept resident — issue 27).
    async fn recover(self: &Arc<Self>) -> Result<usize, EngineError> {
        let ids = self.store.live_workflows().into_iter().map(|row| row.id).collect();
        let live: Vec<WorkflowRecord> =
            self.store.workflows_by_id(ids).await?.into_iter().filter(|w| !w.status.is_terminal()).collect();
        for w in &live {
            match (&w.approval, &w.wait) {
                (Some(a), _) if a.is_pending() => {
                    if let Some(deadline) = a.deadline_ms {
                        self.timers.at(deadline, w.id.clone());
                    }
                    // The 80 % warning: a timer already due fires at once.
                    if let Some(warn) = self.warn_at(w) {
                        self.timers.at(warn, w.id.clone());
                    }
                }
                (_, Wait::Retry { at_ms, .. }) => self.timers.at(*at_ms, w.id.clone()),
                _ => self.enqueue(w.id.clone()),
            }
        }
        Ok(live.len())
    }

    /// Writes `record` if nobody wrote it since it was read; `None` on a conflict.
    async fn save(
        &self,
        mut record: WorkflowRecord,
        previous: WorkflowStatus,
    ) -> Result<Option<WorkflowRecord>, EngineError> {
        record.updated_ms = self.now_ms();
        let run = (record.status != previous || record.revision == 0).then(|| super::ledger_row(&record));
        let expected = (record.revision > 0).then_some(record.revision);
        match self.store.write_workflow(WorkflowWrite { record, expected, run }).await? {
            WorkflowOutcome::Written(r) => Ok(Some(*r)),
            WorkflowOutcome::Conflict => Ok(None),
        }
    }
}

impl Engine for DemoEngine {
    fn name(&self) -> &'static str {
        "demo"
    }

    fn connection(&self) -> &'static str {
        "disabled"
    }

    fn start(&self, new: NewWorkflow) -> BoxFuture<'_, Result<WorkflowRecord, EngineError>> {
        Box::pin(Arc::clone(&self.inner).create(new))
    }

    fn signal<'a>(&'a self, id: &'a str, signal: ApprovalSignal) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>> {
        Box::pin(async move {
            loop {
                let mut record =
                    self.inner.store.workflow(id).await?.ok_or_else(|| EngineError::NotFound(id.to_owned()))?;
                let previous = record.status;
                let now = self.inner.now_ms();
                if !crate::workflows::transitions::decide(&mut record, &signal, now) {
                    return Err(EngineError::NothingPending(id.to_owned()));
                }
                if let Some(saved) = self.inner.save(record, previous).await? {
                    super::announce::decided(&self.inner.store, &saved, signal.decision);
                    self.inner.enqueue(saved.id.clone());
                    return Ok(saved);
                }
            }
        })
    }

    fn cancel<'a>(&'a self, id: &'a str, request: CancelRequest) -> BoxFuture<'a, Result<WorkflowRecord, EngineError>> {
        Box::pin(async move {
            loop {
                let mut record =
                    self.inner.store.workflow(id).await?.ok_or_else(|| EngineError::NotFound(id.to_owned()))?;
                if record.status.is_terminal() {
                    return Err(EngineError::Ended(id.to_owned()));
                }
                let previous = record.status;
                crate::workflows::transitions::cancel(&mut record, &request, self.inner.now_ms());
                // A save that lost to an executor's write reads the record again.
                if let Some(saved) = self.inner.save(record, previous).await? {
                    tracing::info!(workflow = %saved.id, by = %request.by, reason = %request.reason, "workflow cancelled");
                    super::announce::ended(&self.inner.store, &saved);
                    if let Some(parent) = &saved.parent {
                        self.inner.enqueue(parent.clone());
                    }
                    return Ok(saved);
                }
            }
        })
    }

    fn release(&self, ids: Vec<String>, _revision: u64) -> BoxFuture<'_, Result<(), EngineError>> {
        // The executor re-reads the pauses before the workflow's next step.
        for id in ids {
            self.inner.enqueue(id);
        }
        Box::pin(async { Ok(()) })
    }

    fn describe<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<WorkflowRecord>, EngineError>> {
        Box::pin(async move { Ok(self.inner.store.workflow(id).await?) })
    }

    fn list(&self) -> BoxFuture<'_, Result<Vec<WorkflowRecord>, EngineError>> {
        Box::pin(async move { Ok(self.inner.store.workflows().await?) })
    }

    fn listing(&self) -> BoxFuture<'_, Result<Listing, EngineError>> {
        Box::pin(async move { Ok(Listing::Indexed(self.inner.store.clone())) })
    }
}
