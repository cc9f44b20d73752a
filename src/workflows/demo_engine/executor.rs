//! Advancing one workflow: ask its definition for the next command and carry it out, recording
//! every transition durably before announcing it, until the workflow ends or parks (at an
//! approval gate, on a retry backoff, or waiting for children).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::Inner;
use crate::domain::{StepStatus, WorkflowStatus};
use crate::store::{Wait, WorkflowRecord};
use crate::workflows::activities::{ActivityError, CallLog, StepCall};
use crate::workflows::announce;
use crate::workflows::budget_gate::{self, Verdict};
use crate::workflows::definitions;
use crate::workflows::engine::{EngineError, NewWorkflow};
use crate::workflows::script::{Activity, ChildSpec, Command, History};
use crate::workflows::transitions;

/// What one command did to the workflow.
enum Next {
    /// Ask the definition again.
    Continue,
    /// Parked or ended: nothing to do until something wakes it.
    Park,
}

impl Inner {
    pub(super) async fn advance(self: &Arc<Self>, id: &str) -> Result<(), EngineError> {
        loop {
            // Shutting down: the step that was in flight is recorded; nothing new starts.
            if self.shutdown.is_cancelled() {
                return Ok(());
            }
            let Some(record) = self.store.workflow(id).await? else { return Ok(()) };
            if record.status.is_terminal() {
                return Ok(());
            }
            if self.is_blocked(&record) {
                return self.warn_if_expiring(&record).await;
            }
            let command = match History::of(&record) {
                Ok(history) => definitions::next(&history, &self.settings.sla),
                Err(unreadable) => Command::Fail(unreadable.to_string()),
            };
            if matches!(self.execute(record, command).await?, Next::Park) {
                return Ok(());
            }
        }
    }

    /// Whether the workflow waits for something that has not happened yet; a lapsed gate or a
    /// due retry lets it continue.
    fn is_blocked(&self, record: &WorkflowRecord) -> bool {
        let now = self.now_ms();
        if let Some(approval) = record.approval.as_ref().filter(|a| a.is_pending()) {
            return approval.deadline_ms.is_none_or(|deadline| deadline > now);
        }
        match &record.wait {
            Wait::Retry { at_ms, .. } if *at_ms > now => {
                self.timers.at(*at_ms, record.id.clone());
                true
            }
            _ => false,
        }
    }

    /// When the pending gate's `approval.expiring` is due (none when warnings are off).
    pub(super) fn warn_at(&self, record: &WorkflowRecord) -> Option<i64> {
        transitions::expiring_at(record).filter(|_| self.settings.sla.warn_expiring)
    }

    /// At 80 % of a pending approval's life, tells the team once per gate run (the outbox id
    /// makes a second telling, after a restart, a no-op) and announces `approval.expiring`;
    /// before then, sets the timer that wakes the workflow for it.
    async fn warn_if_expiring(&self, record: &WorkflowRecord) -> Result<(), EngineError> {
        let Some(at) = self.warn_at(record) else { return Ok(()) };
        if at > self.now_ms() {
            self.timers.at(at, record.id.clone());
            return Ok(());
        }
        if let Some((id, text)) = transitions::expiring_notice(record)
            && self.activities.notifications.queue(id, "approval.expiring", text, Some(record.id.clone())).await?
        {
            announce::expiring(&self.store, record);
        }
        Ok(())
    }

    async fn execute(self: &Arc<Self>, mut record: WorkflowRecord, command: Command) -> Result<Next, EngineError> {
        if let Some(step) = record.approval.as_ref().filter(|a| a.is_pending()).map(|a| a.step.clone()) {
            // The gate's deadline passed with nobody deciding: record the lapse.
            return self.lapse(record, step).await;
        }
        let hold = match command.starts_work() {
            true => self.store.hold(&record.worker, record.kind).await?,
            false => None,
        };
        match hold {
            Some(hold) => return self.hold(record, &hold.pause).await,
            None if transitions::is_held(&record) => return self.release(record).await,
            None => {}
        }
        match command {
            Command::Run { step, activity } => self.run_within_budget(record, step, activity).await,
            Command::Await { step, summary, deadline_secs } => {
                self.park_at_gate(record, step, summary, deadline_secs).await
            }
            Command::StartChildren { step, children } => self.start_children(record, step, children).await,
            Command::AwaitChildren { step, ids } => self.await_children(record, step, ids).await,
            Command::Complete(result) => self.end(record, WorkflowStatus::Completed, Some(result), None).await,
            Command::Cancel(result) => self.end(record, WorkflowStatus::Cancelled, Some(result), None).await,
            Command::Fail(reason) => {
                record.error = Some(reason.clone());
                self.end(record, WorkflowStatus::Failed, None, Some(reason)).await
            }
        }
    }

    /// Runs `step` when the budgets allow (`budget_gate`): a model call past a budget's soft
    /// share asks at the `budget` gate first; one past its limit fails the workflow unrun.
    async fn run_within_budget(
        self: &Arc<Self>,
        mut record: WorkflowRecord,
        step: &'static str,
        activity: Activity,
    ) -> Result<Next, EngineError> {
        let standing = match activity.kind.calls_model() {
            true => crate::budgets::standing(&self.store, &self.activities.budgets, &record.worker).await?,
            false => None,
        };
        match budget_gate::verdict(&record, step, activity.kind, standing.as_ref()) {
            Verdict::Go => self.run_activity(record, step, activity).await,
            Verdict::Ask(summary) => {
                let deadline_secs = self.settings.sla.approval_secs(record.kind);
                self.park_at_gate(record, budget_gate::BUDGET_STEP, summary, deadline_secs).await
            }
            Verdict::Fail(reason) => {
                budget_gate::refuse(&mut record, step, &reason, self.now_ms());
                tracing::warn!(workflow = %record.id, step, %reason, "a spent budget fails the workflow");
                self.end(record, WorkflowStatus::Failed, None, Some(reason)).await
            }
            Verdict::Stop(result) => self.end(record, WorkflowStatus::Cancelled, Some(result), None).await,
        }
    }

    async fn run_activity(
        self: &Arc<Self>,
        mut record: WorkflowRecord,
        step: &str,
        activity: Activity,
    ) -> Result<Next, EngineError> {
        let attempt = match &record.wait {
            Wait::Retry { step: s, attempt, .. } if s == step => attempt + 1,
            _ => 1,
        };
        let started = self.now_ms();
        let log = CallLog::default();
        let call =
            StepCall { workflow_id: &record.id, worker: &record.worker, step, index: record.steps.len(), log: &log };
        let timeout = Duration::from_secs(self.settings.activity_timeout_secs);
        let outcome = match tokio::time::timeout(timeout, self.activities.run(call, &activity)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(ActivityError::Timeout(self.settings.activity_timeout_secs)),
        };
        self.activities.record_calls(log.into_inner().unwrap_or_default()).await;
        let previous = record.status;
        match outcome {
            Ok(output) => {
                record.wait = Wait::Nothing;
                record.steps.push(transitions::step_record(
                    step,
                    StepStatus::Completed,
                    started,
                    self.now_ms(),
                    &output,
                    attempt,
                ));
                if let Some(saved) = self.save(record, previous).await? {
                    announce::step(&self.store, &saved, step, "completed");
                }
                Ok(Next::Continue)
            }
            Err(e) if attempt < self.settings.retry_attempts => {
                let backoff = self
                    .settings
                    .retry_base_ms
                    .saturating_mul(1 << (attempt - 1).min(20))
                    .min(self.settings.retry_max_ms);
                let at_ms = self.now_ms() + backoff as i64;
                tracing::warn!(workflow = %record.id, step, attempt, error = %e, retry_in_ms = backoff, "activity failed; retrying");
                record.wait = Wait::Retry { step: step.to_owned(), attempt, at_ms, error: e.to_string() };
                if self.save(record.clone(), previous).await?.is_some() {
                    self.timers.at(at_ms, record.id.clone());
                    return Ok(Next::Park);
                }
                Ok(Next::Continue)
            }
            Err(e) => {
                let reason = format!("step {step} failed after {attempt} attempts: {e}");
                record.wait = Wait::Nothing;
                record.steps.push(transitions::step_record(
                    step,
                    StepStatus::Failed,
                    started,
                    self.now_ms(),
                    &json!({"error": e.to_string()}),
                    attempt,
                ));
                record.error = Some(reason.clone());
                self.end(record, WorkflowStatus::Failed, None, Some(reason)).await
            }
        }
    }

    async fn park_at_gate(
        &self,
        mut record: WorkflowRecord,
        step: &str,
        summary: String,
        deadline_secs: Option<u64>,
    ) -> Result<Next, EngineError> {
        let previous = record.status;
        let index = transitions::open_gate(&mut record, step, summary, self.now_ms(), deadline_secs);
        // Queued before the state is saved: a crash in between re-queues the same id (once).
        let (id, text) = transitions::approval_notice(&record, index);
        self.activities.notifications.queue(id, "approval.requested", text, Some(record.id.clone())).await?;
        let deadline_ms = record.approval.as_ref().and_then(|a| a.deadline_ms);
        let Some(saved) = self.save(record, previous).await? else { return Ok(Next::Continue) };
        if let Some(deadline) = deadline_ms {
            self.timers.at(deadline, saved.id.clone());
        }
        if let Some(warn) = self.warn_at(&saved) {
            self.timers.at(warn, saved.id.clone());
        }
        crate::workflows::binding::record(&self.store, &saved).await;
        announce::waiting(&self.store, &saved);
        Ok(Next::Park)
    }

    /// Holds at this boundary for `pause` (recorded once as an open `paused` step); the
    /// workflow stays parked until a resume wakes it (`Engine::release`) or a restart re-reads it.
    async fn hold(&self, mut record: WorkflowRecord, pause: &crate::store::PauseRecord) -> Result<Next, EngineError> {
        let previous = record.status;
        if transitions::hold(&mut record, pause, self.now_ms())
            && let Some(saved) = self.save(record, previous).await?
        {
            tracing::info!(workflow = %saved.id, scope = pause.scope.as_str(), target = %pause.target, "workflow holds for a pause");
            announce::step(&self.store, &saved, transitions::PAUSED_STEP, "held");
        }
        Ok(Next::Park)
    }

    /// The pause it held for was lifted: closes the `paused` step and goes on.
    async fn release(&self, mut record: WorkflowRecord) -> Result<Next, EngineError> {
        let previous = record.status;
        transitions::release(&mut record, self.now_ms());
        if let Some(saved) = self.save(record, previous).await? {
            tracing::info!(workflow = %saved.id, "workflow resumes after a pause");
            announce::step(&self.store, &saved, transitions::PAUSED_STEP, "resumed");
        }
        Ok(Next::Continue)
    }

    /// Records that nobody decided before the gate's deadline.
    async fn lapse(&self, mut record: WorkflowRecord, step: String) -> Result<Next, EngineError> {
        let previous = record.status;
        transitions::lapse(&mut record, &step, self.now_ms());
        if let Some(saved) = self.save(record, previous).await? {
            announce::step(&self.store, &saved, &step, "lapsed");
        }
        Ok(Next::Continue)
    }

    async fn start_children(
        self: &Arc<Self>,
        mut record: WorkflowRecord,
        step: &str,
        children: Vec<ChildSpec>,
    ) -> Result<Next, EngineError> {
        let started = self.now_ms();
        let mut ids = Vec::new();
        for (n, child) in children.into_iter().enumerate() {
            let id = format!("{}-{}", record.id, n + 1);
            let new = NewWorkflow {
                id: id.clone(),
                worker: child.worker,
                params: child.params,
                parent: Some(record.id.clone()),
            };
            match Arc::clone(self).create(new).await {
                Ok(_) | Err(EngineError::Exists(_)) => ids.push(id),
                Err(e) => return Err(e),
            }
        }
        let previous = record.status;
        record.children = ids.clone();
        record.steps.push(transitions::step_record(
            step,
            StepStatus::Completed,
            started,
            self.now_ms(),
            &json!({"children": ids}),
            1,
        ));
        if let Some(saved) = self.save(record, previous).await? {
            announce::step(&self.store, &saved, step, "completed");
        }
        Ok(Next::Continue)
    }

    async fn await_children(
        &self,
        mut record: WorkflowRecord,
        step: &str,
        ids: Vec<String>,
    ) -> Result<Next, EngineError> {
        let mut ends = Vec::new();
        for id in &ids {
            match self.store.workflow(id).await? {
                Some(child) if child.status.is_terminal() => ends.push(json!({
                    "workflowId": child.id, "type": child.kind, "worker": child.worker, "status": child.status,
                    "result": child.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
                    "error": child.error,
                })),
                Some(_) => {
                    if record.wait != Wait::Children(ids.clone()) {
                        let previous = record.status;
                        record.wait = Wait::Children(ids);
                        self.save(record, previous).await?;
                    }
                    return Ok(Next::Park);
                }
                None => ends.push(json!({"workflowId": id, "status": "missing"})),
            }
        }
        let previous = record.status;
        let started = record.steps.last().and_then(|s| s.finished_ms).unwrap_or_else(|| self.now_ms());
        record.wait = Wait::Nothing;
        record.steps.push(transitions::step_record(
            step,
            StepStatus::Completed,
            started,
            self.now_ms(),
            &json!({"children": ends}),
            1,
        ));
        if let Some(saved) = self.save(record, previous).await? {
            announce::step(&self.store, &saved, step, "completed");
        }
        Ok(Next::Continue)
    }

    async fn end(
        self: &Arc<Self>,
        mut record: WorkflowRecord,
        status: WorkflowStatus,
        result: Option<Value>,
        error: Option<String>,
    ) -> Result<Next, EngineError> {
        let previous = record.status;
        transitions::end(&mut record, status, result, error, self.now_ms());
        if status == WorkflowStatus::Failed {
            // Queued before the end is saved, so a crash in between cannot lose it.
            let (id, text) = transitions::failure_notice(&record);
            self.activities.notifications.queue(id, "workflow.failed", text, Some(record.id.clone())).await?;
        }
        let Some(saved) = self.save(record, previous).await? else { return Ok(Next::Continue) };
        announce::ended(&self.store, &saved);
        if let Some(parent) = &saved.parent {
            self.enqueue(parent.clone());
        }
        Ok(Next::Park)
    }
}
