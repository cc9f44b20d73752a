//! The deterministic Temporal workflow code every registered type shares: it keeps the
//! workflow's `WorkflowRecord` as its state (answered by the `record` query), asks the type's
//! definition for the next command (`definitions::next`, the same pure function the demo engine
//! calls) and carries it out with Temporal's primitives — activities on the right task queue
//! with the configured retry policy, approval gates as a condition on the state (set by the
//! `decide` update or the `approval` signal) raced against a durable timer, child workflows.
//! Every state change is announced through the `gtms.transition` local activity. Time comes
//! from the workflow clock, so a replay rebuilds the same record.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Value, json};
use temporalio_common::RetryPolicy;
use temporalio_common::error::ApplicationFailure;
use temporalio_sdk::{
    ActivityOptions, ChildWorkflowOptions, LocalActivityOptions, WorkflowContext, WorkflowResult, WorkflowTermination,
};
use temporalio_workflow::{ChildWorkflowExecutionError, ChildWorkflowStartError, MemoValue};

use super::activities::{ApplianceActivities, ComputeActivities};
use super::messages::{Boundary, Event, Notice, RunSettings, StartInput, StepInput, StepOutput, Transition};
use crate::budgets::Standing;
use crate::domain::{StepStatus, WorkflowStatus, WorkflowType};
use crate::store::{Hold, ModelCall, Wait, WorkflowRecord};
use crate::workflows::budget_gate::{self, Verdict};
use crate::workflows::definitions;
use crate::workflows::script::{Activity, ChildSpec, Command, History, Queue};
use crate::workflows::transitions::{self, CancelRequest};

/// The state of every gtms workflow type.
#[derive(Debug, Clone)]
pub struct Script {
    pub record: WorkflowRecord,
    pub settings: RunSettings,
    pub controls: Controls,
}

/// What the controls asked of a workflow: the pause it last learned it holds for and where its
/// budgets stood (both from the transition activity, the pause with the revision of that
/// reading), the revision of the latest resume it was told of (the `release` signal), and a
/// cancel request (the `cancel` update).
#[derive(Debug, Clone, Default)]
pub struct Controls {
    pub hold: Option<Hold>,
    pub budget: Option<Standing>,
    pub released: u64,
    pub cancel: Option<CancelRequest>,
}

impl Controls {
    /// Held by a pause no resume came after.
    fn holds(&self) -> bool {
        self.hold.as_ref().is_some_and(|h| h.revision >= self.released)
    }
}

/// What the six workflow structs share (`workflow_types`, which implements it for each).
pub trait Scripted: 'static + Sized {
    const KIND: WorkflowType;
    fn script(&self) -> &Script;
    fn script_mut(&mut self) -> &mut Script;
    /// Starts a child workflow of the type `input` names; the future answers its end.
    fn start_child(
        ctx: &WorkflowContext<Self>,
        input: StartInput,
        options: ChildWorkflowOptions,
    ) -> impl Future<Output = Result<ChildEnd, ChildWorkflowStartError>>;
}

/// A child's end: its final record, or why it failed.
pub type ChildEnd = Pin<Box<dyn Future<Output = Result<WorkflowRecord, ChildWorkflowExecutionError>>>>;

/// Milliseconds since the epoch of a time the SDK reports (the workflow clock, visibility times).
pub fn clock_ms(time: Option<std::time::SystemTime>) -> i64 {
    time.and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as i64)
}

fn now<W>(ctx: &WorkflowContext<W>) -> i64 {
    clock_ms(ctx.workflow_time())
}

fn record<W: Scripted>(ctx: &WorkflowContext<W>) -> WorkflowRecord {
    ctx.state(|w| w.script().record.clone())
}

fn edit<W: Scripted, R>(ctx: &WorkflowContext<W>, f: impl FnOnce(&mut WorkflowRecord) -> R) -> R {
    let at = now(ctx);
    ctx.state_mut(|w| {
        let record = &mut w.script_mut().record;
        record.updated_ms = at;
        record.revision += 1;
        f(record)
    })
}

/// Runs a workflow to its end.
pub async fn drive<W: Scripted>(ctx: &mut WorkflowContext<W>) -> WorkflowResult<WorkflowRecord> {
    let settings = ctx.state(|w| w.script().settings.clone());
    let start = record(ctx);
    ctx.upsert_memo([
        ("worker", Some(MemoValue::new(start.worker.clone()))),
        ("params", Some(MemoValue::new(start.params.clone()))),
        ("parent", start.parent.clone().map(MemoValue::new)),
    ])?;
    announce(ctx, Event::Started, None, Vec::new()).await?;
    let mut children: HashMap<String, ChildEnd> = HashMap::new();
    loop {
        if let Some(request) = ctx.state(|w| w.script().controls.cancel.clone()) {
            return cancelled(ctx, request).await;
        }
        let command = match ctx.state(|w| History::of(&w.script().record)) {
            Ok(history) if history.params.kind() != W::KIND => {
                Command::Fail(format!("a {} workflow was started with {} parameters", W::KIND, history.params.kind()))
            }
            Ok(history) => definitions::next(&history, &settings.sla),
            Err(unreadable) => Command::Fail(unreadable.to_string()),
        };
        if command.starts_work() && ctx.state(|w| w.script().controls.holds()) {
            hold(ctx).await?;
            continue;
        }
        match command {
            Command::Run { step, activity } => {
                if let Some(done) = run_within_budget(ctx, &settings, step, activity).await? {
                    return Ok(done);
                }
            }
            Command::Await { step, summary, deadline_secs } => {
                gate(ctx, &settings, step, summary, deadline_secs).await?
            }
            Command::StartChildren { step, children: specs } => {
                start_children(ctx, &settings, step, specs, &mut children).await?
            }
            Command::AwaitChildren { step, ids } => await_children(ctx, step, ids, &mut children).await?,
            Command::Complete(result) => return end(ctx, WorkflowStatus::Completed, Some(result), None).await,
            Command::Cancel(result) => return end(ctx, WorkflowStatus::Cancelled, Some(result), None).await,
            Command::Fail(reason) => return end(ctx, WorkflowStatus::Failed, None, Some(reason)).await,
        }
    }
}

/// Holds at this boundary (an open `paused` step) until a resume after the pause it learned
/// of (`release`) or a cancel; then closes the step unless it was cancelled.
async fn hold<W: Scripted>(ctx: &WorkflowContext<W>) -> WorkflowResult<()> {
    let Some(pause) = ctx.state(|w| w.script().controls.hold.clone()).map(|h| h.pause) else { return Ok(()) };
    let at = now(ctx);
    if edit(ctx, |r| transitions::hold(r, &pause, at)) {
        let held = Event::Step { step: transitions::PAUSED_STEP.into(), outcome: "held".into() };
        announce(ctx, held, None, Vec::new()).await?;
    }
    ctx.wait_condition(|w: &W| !w.script().controls.holds() || w.script().controls.cancel.is_some()).await?;
    if ctx.state(|w| w.script().controls.cancel.is_some()) {
        return Ok(());
    }
    let at = now(ctx);
    if edit(ctx, |r| transitions::release(r, at)) {
        let resumed = Event::Step { step: transitions::PAUSED_STEP.into(), outcome: "resumed".into() };
        announce(ctx, resumed, None, Vec::new()).await?;
    }
    Ok(())
}

/// Ends the workflow as cancelled by `request` (`transitions::cancel`).
async fn cancelled<W: Scripted>(ctx: &WorkflowContext<W>, request: CancelRequest) -> WorkflowResult<WorkflowRecord> {
    let at = now(ctx);
    edit(ctx, |r| transitions::cancel(r, &request, at));
    let done = record(ctx);
    ctx.upsert_memo([("status", Some(MemoValue::new(done.status.as_str().to_owned())))])?;
    announce(ctx, Event::Ended, None, Vec::new()).await?;
    Ok(done)
}

/// Runs `step` when the budgets allow (`budget_gate`): a model call past a budget's soft share
/// asks at the `budget` gate first; one past its limit fails the workflow unrun. `Some` when
/// the workflow ended (a failure ends it with the termination as the error).
async fn run_within_budget<W: Scripted>(
    ctx: &WorkflowContext<W>,
    settings: &RunSettings,
    step: &str,
    activity: Activity,
) -> WorkflowResult<Option<WorkflowRecord>> {
    let verdict = ctx.state(|w| {
        let script = w.script();
        budget_gate::verdict(&script.record, step, activity.kind, script.controls.budget.as_ref())
    });
    match verdict {
        Verdict::Go => match run_step(ctx, settings, step, activity).await? {
            Ok(()) => Ok(None),
            Err(reason) => end(ctx, WorkflowStatus::Failed, None, Some(reason)).await.map(Some),
        },
        Verdict::Ask(summary) => {
            let deadline_secs = settings.sla.approval_secs(W::KIND);
            gate(ctx, settings, budget_gate::BUDGET_STEP, summary, deadline_secs).await.map(|()| None)
        }
        Verdict::Fail(reason) => {
            let at = now(ctx);
            edit(ctx, |r| budget_gate::refuse(r, step, &reason, at));
            end(ctx, WorkflowStatus::Failed, None, Some(reason)).await.map(Some)
        }
        Verdict::Stop(result) => end(ctx, WorkflowStatus::Cancelled, Some(result), None).await.map(Some),
    }
}

/// Runs the activity of `step`; `Err(reason)` when it failed after every retry.
async fn run_step<W: Scripted>(
    ctx: &WorkflowContext<W>,
    settings: &RunSettings,
    step: &str,
    activity: Activity,
) -> WorkflowResult<Result<(), String>> {
    let started = now(ctx);
    let current = record(ctx);
    let input = StepInput {
        workflow_id: current.id.clone(),
        worker: current.worker.clone(),
        step: step.to_owned(),
        index: current.steps.len(),
        activity: activity.clone(),
    };
    let queue = match activity.kind.queue() {
        Queue::Appliance => &settings.appliance_queue,
        Queue::Compute => &settings.compute_queue,
    };
    let mut options =
        ActivityOptions::with_start_to_close_timeout(Duration::from_secs(settings.activity_timeout_secs)).build();
    options.task_queue = Some(queue.clone());
    options.retry_policy = Some(retry_policy(settings));
    options.summary = Some(format!("{step} ({:?})", activity.kind));
    let outcome = match activity.kind.queue() {
        Queue::Appliance => ctx.execute_activity(ApplianceActivities::step, input, options).await,
        Queue::Compute => ctx.execute_activity(ComputeActivities::step, input, options).await,
    };
    let finished = now(ctx);
    match outcome {
        Ok(StepOutput { output, calls }) => {
            edit(ctx, |r| {
                r.wait = Wait::Nothing;
                r.steps.push(transitions::step_record(step, StepStatus::Completed, started, finished, &output, 1))
            });
            let outcome = Event::Step { step: step.to_owned(), outcome: "completed".into() };
            announce(ctx, outcome, None, calls).await?;
            Ok(Ok(()))
        }
        Err(e) => {
            let why = failure_message(&e);
            let attempts = settings.retry_attempts;
            let output = json!({"error": why});
            edit(ctx, |r| {
                r.steps.push(transitions::step_record(step, StepStatus::Failed, started, finished, &output, attempts))
            });
            Ok(Err(format!("step {step} failed after {attempts} attempts: {why}")))
        }
    }
}

fn retry_policy(s: &RunSettings) -> RetryPolicy {
    RetryPolicy::builder()
        .initial_interval(Duration::from_millis(s.retry_base_ms.max(1)))
        .backoff_coefficient(2.0)
        .maximum_interval(Duration::from_millis(s.retry_max_ms.max(s.retry_base_ms).max(1)))
        .maximum_attempts(s.retry_attempts)
        .build()
}

/// The innermost failure message (the activity's own error, not Temporal's wrapping).
fn failure_message(e: &temporalio_workflow::ActivityExecutionError) -> String {
    let mut failure = e.failure();
    let mut message = e.to_string();
    while let Some(f) = failure {
        if !f.message.is_empty() {
            message = f.message.clone();
        }
        failure = f.cause.as_deref();
    }
    message
}

/// Parks at an approval gate until a decision arrives (or the deadline passes).
async fn gate<W: Scripted>(
    ctx: &WorkflowContext<W>,
    settings: &RunSettings,
    step: &str,
    summary: String,
    deadline_secs: Option<u64>,
) -> WorkflowResult<()> {
    let at = now(ctx);
    let index = edit(ctx, |r| transitions::open_gate(r, step, summary, at, deadline_secs));
    let (id, text) = transitions::approval_notice(&record(ctx), index);
    let notice = Notice { id, event: "approval.requested".into(), text };
    announce(ctx, Event::Waiting, Some(notice), Vec::new()).await?;
    // A cancel ends the wait too (the loop then ends the workflow).
    let decided = |w: &W| {
        w.script().record.approval.as_ref().is_none_or(|a| !a.is_pending()) || w.script().controls.cancel.is_some()
    };
    match deadline_secs {
        None => ctx.wait_condition(decided).await?,
        Some(secs) => {
            let life = Duration::from_secs(secs);
            // At 80 % of its life the gate warns (`approval.expiring`), then waits out the rest.
            let warn = if settings.sla.warn_expiring { life * 4 / 5 } else { Duration::ZERO };
            let decided_early = !warn.is_zero()
                && temporalio_sdk::workflows::select! {
                    done = ctx.wait_condition(decided) => { done?; true },
                    _ = ctx.timer(warn) => false,
                };
            if !decided_early {
                if !warn.is_zero()
                    && let Some((id, text)) = transitions::expiring_notice(&record(ctx))
                {
                    let notice = Notice { id, event: "approval.expiring".into(), text };
                    announce(ctx, Event::Expiring, Some(notice), Vec::new()).await?;
                }
                temporalio_sdk::workflows::select! {
                    done = ctx.wait_condition(decided) => done?,
                    _ = ctx.timer(life - warn) => {}
                }
            }
        }
    }
    if ctx.state(|w| w.script().controls.cancel.is_some()) {
        return Ok(());
    }
    let decision = ctx.state(|w| w.script().record.approval.as_ref().and_then(|a| a.decision));
    match decision {
        Some(decision) => announce(ctx, Event::Decided { decision }, None, Vec::new()).await,
        None => {
            let at = now(ctx);
            edit(ctx, |r| transitions::lapse(r, step, at));
            announce(ctx, Event::Step { step: step.to_owned(), outcome: "lapsed".into() }, None, Vec::new()).await
        }
    }
}

async fn start_children<W: Scripted>(
    ctx: &WorkflowContext<W>,
    settings: &RunSettings,
    step: &str,
    specs: Vec<ChildSpec>,
    children: &mut HashMap<String, ChildEnd>,
) -> WorkflowResult<()> {
    let started = now(ctx);
    let parent = record(ctx).id;
    let mut ids = Vec::new();
    for (n, spec) in specs.into_iter().enumerate() {
        let id = format!("{parent}-{}", n + 1);
        let input = super::messages::StartInput {
            worker: spec.worker,
            params: spec.params,
            parent: Some(parent.clone()),
            settings: settings.clone(),
        };
        let mut options = ChildWorkflowOptions::workflow_id(id.clone());
        options.task_queue = Some(settings.appliance_queue.clone());
        children.insert(id.clone(), W::start_child(ctx, input, options).await?);
        ids.push(id);
    }
    let finished = now(ctx);
    edit(ctx, |r| {
        r.children = ids.clone();
        let output = json!({"children": ids});
        r.steps.push(transitions::step_record(step, StepStatus::Completed, started, finished, &output, 1));
    });
    announce(ctx, Event::Step { step: step.to_owned(), outcome: "completed".into() }, None, Vec::new()).await
}

async fn await_children<W: Scripted>(
    ctx: &WorkflowContext<W>,
    step: &str,
    ids: Vec<String>,
    children: &mut HashMap<String, ChildEnd>,
) -> WorkflowResult<()> {
    let started = now(ctx);
    edit(ctx, |r| r.wait = Wait::Children(ids.clone()));
    let mut ends = Vec::new();
    for id in &ids {
        let end = match children.remove(id) {
            Some(child) => match child.await {
                Ok(c) => json!({
                    "workflowId": c.id, "type": c.kind, "worker": c.worker, "status": c.status,
                    "result": c.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
                    "error": c.error,
                }),
                Err(e) => json!({"workflowId": id, "status": "failed", "error": e.to_string()}),
            },
            None => json!({"workflowId": id, "status": "missing"}),
        };
        ends.push(end);
    }
    let finished = now(ctx);
    edit(ctx, |r| {
        r.wait = Wait::Nothing;
        let output = json!({"children": ends});
        r.steps.push(transitions::step_record(step, StepStatus::Completed, started, finished, &output, 1));
    });
    announce(ctx, Event::Step { step: step.to_owned(), outcome: "completed".into() }, None, Vec::new()).await
}

/// Ends the workflow: the record is the result; a failure fails the Temporal execution too.
async fn end<W: Scripted>(
    ctx: &WorkflowContext<W>,
    status: WorkflowStatus,
    result: Option<Value>,
    error: Option<String>,
) -> WorkflowResult<WorkflowRecord> {
    let at = now(ctx);
    edit(ctx, |r| transitions::end(r, status, result, error, at));
    let done = record(ctx);
    ctx.upsert_memo([("status", Some(MemoValue::new(status.as_str().to_owned())))])?;
    let notice = (status == WorkflowStatus::Failed).then(|| {
        let (id, text) = transitions::failure_notice(&done);
        Notice { id, event: "workflow.failed".into(), text }
    });
    announce(ctx, Event::Ended, notice, Vec::new()).await?;
    match status {
        WorkflowStatus::Failed => {
            let reason = done.error.clone().unwrap_or_else(|| "failed".into());
            Err(WorkflowTermination::from(ApplicationFailure::non_retryable(reason)))
        }
        _ => Ok(done),
    }
}

/// Runs the `gtms.transition` local activity for the current record, and keeps the pause and
/// the budgets' standing it answers (recorded in history, so a replay reads the same —
/// histories from before pauses recorded `null`, from before budgets a hold alone).
async fn announce<W: Scripted>(
    ctx: &WorkflowContext<W>,
    event: Event,
    notice: Option<Notice>,
    calls: Vec<ModelCall>,
) -> WorkflowResult<()> {
    let transition = Transition { record: record(ctx), event, notice, calls };
    let options = LocalActivityOptions::builder().start_to_close_timeout(Duration::from_secs(30)).build();
    let answer = ctx.execute_local_activity(ApplianceActivities::transition, transition, options).await?;
    let Boundary { hold, budget } = answer.unwrap_or_default();
    ctx.state_mut(|w| {
        let controls = &mut w.script_mut().controls;
        controls.hold = hold;
        controls.budget = budget;
    });
    Ok(())
}
