//! The Temporal activities: `gtms.appliance-step` (the steps that touch the appliance's redb:
//! memory, accounts and deals, the outbox) and `gtms.transition` (a local activity: announce a
//! state change on `/ws`, update the run ledger, record model calls, queue a notification, and
//! answer the pause that holds the workflow and where its budgets stand, if either matters),
//! served on the appliance's task queue;
//! `gtms.compute-step` (model calls and company data), served on the compute queue by the
//! appliance and by any `gtms worker` process.

use std::sync::Arc;

use temporalio_macros::activities;
use temporalio_sdk::activities::{ActivityContext, ActivityError};

use super::messages::{Boundary, Event, StepInput, StepOutput, Transition};
use crate::workflows::activities::{Activities, CallLog, Compute, StepCall};
use crate::workflows::{announce, ledger_row};

/// One step's activity attempt, in a span naming the workflow, step and activity (as the demo
/// engine's `Activities::run`).
#[tracing::instrument(
    level = "debug", name = "activity", skip_all,
    fields(workflow = %input.workflow_id, step = %input.step, kind = ?input.activity.kind)
)]
async fn run_step<F>(input: StepInput, run: F) -> Result<StepOutput, ActivityError>
where
    F: AsyncFnOnce(StepCall<'_>) -> Result<serde_json::Value, crate::workflows::activities::ActivityError>,
{
    let log = CallLog::default();
    let call = StepCall {
        workflow_id: &input.workflow_id,
        worker: &input.worker,
        step: &input.step,
        index: input.index,
        log: &log,
    };
    let output = run(call).await?;
    Ok(StepOutput { output, calls: log.into_inner().unwrap_or_default() })
}

/// The activities of the appliance's task queue.
pub struct ApplianceActivities {
    pub activities: Activities,
}

#[activities]
impl ApplianceActivities {
    #[activity(name = "gtms.appliance-step")]
    pub async fn step(self: Arc<Self>, _ctx: ActivityContext, input: StepInput) -> Result<StepOutput, ActivityError> {
        let activity = input.activity.clone();
        run_step(input, async |call| self.activities.run(call, &activity).await).await
    }

    #[activity(name = "gtms.transition")]
    pub async fn transition(
        self: Arc<Self>,
        _ctx: ActivityContext,
        t: Transition,
    ) -> Result<Option<Boundary>, ActivityError> {
        let acts = &self.activities;
        if let Some(n) = t.notice {
            acts.notifications.queue(n.id, &n.event, n.text, Some(t.record.id.clone())).await?;
        }
        acts.record_calls(t.calls).await;
        acts.store.put_run(ledger_row(&t.record)).await?;
        let (store, w) = (&acts.store, &t.record);
        if matches!(t.event, Event::Waiting) {
            crate::workflows::binding::record(store, w).await;
        }
        match &t.event {
            Event::Started => announce::started(store, w),
            Event::Step { step, outcome } => announce::step(store, w, step, outcome),
            Event::Waiting => announce::waiting(store, w),
            Event::Expiring => announce::expiring(store, w),
            Event::Decided { decision } => announce::decided(store, w, *decision),
            Event::Ended => announce::ended(store, w),
        }
        // What holds the workflow at its next boundary, read after the change was announced
        // (and after its model calls were counted).
        if w.status.is_terminal() {
            return Ok(None);
        }
        let hold = store.hold(&w.worker, w.kind).await?;
        let budget = crate::budgets::standing(store, &acts.budgets, &w.worker).await?;
        Ok(Boundary::of(hold, budget))
    }
}

/// The activities of the compute task queue (no redb: a `gtms worker` serves them too).
pub struct ComputeActivities {
    pub compute: Compute,
}

#[activities]
impl ComputeActivities {
    #[activity(name = "gtms.compute-step")]
    pub async fn step(self: Arc<Self>, _ctx: ActivityContext, input: StepInput) -> Result<StepOutput, ActivityError> {
        let activity = input.activity.clone();
        run_step(input, async |call| self.compute.run(call, &activity).await).await
    }
}
